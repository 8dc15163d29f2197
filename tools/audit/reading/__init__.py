"""Reading a write-up: blocks with line maps, the document look-ups, vocabularies and figure patterns."""
