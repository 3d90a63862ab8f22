mv "dir with spaces" nospaces
ls nospaces
