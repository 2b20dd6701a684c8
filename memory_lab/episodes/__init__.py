"""The episodic tier: spans of turns compressed into searchable episodes.

`compression` turns a span into episode records; `search` finds them by meaning
(re-ranked with the query's words); `excerpts` indexes their source turns by
exact words, so hits can be shown beside the verbatim turns that match best;
`periods` keeps finished days and weeks summarised.
"""
