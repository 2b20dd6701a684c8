"""What a memory's owner can do with it: export it, import it, purge it for real.

`forget` (in `facts/`) ends a fact's validity and keeps the row, so it can be
undone and audited. The modules here are for the other kind of control: a file
with everything held about a tenant (`export`), that file brought back
(`restore`), and content removed from every tier and the disk (`purge`).

Export and import share `records` (the file format, read back strictly),
`holdings` (a folder's stores, opened without an engine) and `tables` (the rows
the stores have no call for: messages with their thread, thread states, jobs).
A purge is `selection` (checked), `plan` (ids), `tiers` (each removal),
`needles` (copied text), `erase` (its SQL), `tombstones`, `disk` (the files)
and `resume` (after a kill). The trash (`trash_bin`) holds facts and episodes
their owner deleted until `empty_trash` purges them, chats' with them.
"""
