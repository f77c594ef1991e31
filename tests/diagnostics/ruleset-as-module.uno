# with: _plain-ruleset.uno
# A file that holds only a ruleset, given where a house-rule module is expected.
ruleset host "Host" extends classic { }
