# Used by ruleset-as-module.uno: a ruleset, not a module.
ruleset plain "Plain" extends classic { }                     # error E403
