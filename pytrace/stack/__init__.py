"""``-k``: a stack trace after each syscall line, as strace 6.1 built with libunwind prints it.

Nothing here is imported unless ``-k`` is given (pyelftools is imported lazily by
``elfcache``).  The pieces, in the order a stack trace is made:

* ``maps``      -- /proc/PID/maps, in the two views strace needs: every line (what
                   libunwind searches) and strace's own filtered "mmap cache";
* ``elfcache``  -- one parsed ELF image per file (program headers, the
                   ``.eh_frame_hdr`` search table, symbol tables), cached by
                   path + device + inode + mtime;
* ``cfi``       -- CIE/FDE parsing and the DWARF CFA program, run the way
                   libunwind 1.6 runs it, memoised per (image, pc);
* ``unwind``    -- the walk itself: libunwind's ``unw_step`` (DWARF first, then its
                   PLT / frame-pointer fallbacks) and strace's ``print_stack_frame``;
* ``symbolize`` -- libunwind's "closest preceding STT_FUNC symbol" lookup;
* ``sink``      -- the text sink that prints the frames where strace prints them.
"""
