tar cf - 'dir with spaces' | tar tf - | sort
