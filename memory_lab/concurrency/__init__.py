"""Threads and the locks between them.

- `lock_order`: every lock's name and what it guards, their one declared order,
  and `named_lock`, the factory every lock in the library is made by.
- `lock_checker`: the checker the tests switch on, which fails a thread at once
  when it takes two named locks out of that order, with both stacks.
"""
