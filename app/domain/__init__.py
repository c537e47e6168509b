"""Svizzera's rules, pure: standard library only, no I/O (``../shared/STYLE.md``)."""
