"""Use cases: load rows, call the domain, write rows. Services never commit."""
