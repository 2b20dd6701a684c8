"""The episodic tier: spans of turns compressed into searchable episodes.

`compression` turns a span into episode records; `retrieval` searches them by
meaning and expands hits to excerpts of their source turns.
"""
