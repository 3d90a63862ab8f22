# agentenkit: wasi-libc starts every process in "/" and ignores $PWD, so
# start in $PWD here, before any user code runs. Mounted read-only by the
# wasm adapter's engine and put first on PYTHONPATH.
def _agentenkit_chdir():
    import os
    d = os.environ.get("PWD")
    if d and d != "/":
        try:
            os.chdir(d)
        except OSError:
            pass


_agentenkit_chdir()
del _agentenkit_chdir


# agentenkit: for the same reason the engine gives a new CPython a relative
# script's path made absolute; CPython keeps the path as given in
# sys.argv[0] and sys.orig_argv: put it back (engine/python.go,
# pythonScriptEnv).
def _agentenkit_script():
    import os
    import posix
    import sys
    s = os.environ.pop("AGENTENKIT_SCRIPT", None)
    posix.environ.pop(b"AGENTENKIT_SCRIPT", None)
    if s is None:
        return
    i, _, arg = s.partition(":")
    i = int(i)
    orig = getattr(sys, "orig_argv", None)
    if orig is not None and 0 < i < len(orig) and sys.argv and orig[i] == sys.argv[0]:
        orig[i] = arg
    if sys.argv:
        sys.argv[0] = arg


_agentenkit_script()
del _agentenkit_script


# agentenkit: the network. `import socket` gets the stdlib's module with
# _agentenkit_net's socket (a connection the sandbox's host opens) and
# `import ssl` gets _agentenkit_ssl (TLS done by the host): urllib.request,
# http.client and pure-Python clients on them work unchanged.
class _AgentenkitNetFinder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in ("socket", "ssl"):
            return None
        import importlib.machinery
        import importlib.util
        here = __file__.rsplit("/", 1)[0]
        if name == "ssl":
            return importlib.util.spec_from_file_location("ssl", here + "/_agentenkit_ssl.py")
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            import _agentenkit_net
            _agentenkit_net.patch(module)

        spec.loader.exec_module = exec_module
        return spec


import sys as _sys
_sys.meta_path.insert(0, _AgentenkitNetFinder)
del _sys


# agentenkit: the folder the shell's pip installs into (shell/pip
# UserSite, python3.X for this CPython's 3.X: the user site folder, which
# this CPython does not enable by itself), on sys.path even when pip makes
# it after this CPython started (a prestarted one): the path finder's
# cached "no such folder" is dropped once the folder is there.
_agentenkit_user_site = None  # (folder, finder): what _agentenkit_venv takes back


def _agentenkit_site():
    global _agentenkit_user_site
    import os
    import sys
    d = os.path.join(os.environ.get("HOME") or "/root", ".local/lib/python%d.%d/site-packages" % sys.version_info[:2])
    if d not in sys.path:
        sys.path.append(d)

    class _AgentenkitLateSite:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if path is not None or sys.path_importer_cache.get(d, 0) is not None:
                return None
            if not os.path.isdir(d):
                return None
            del sys.path_importer_cache[d]
            import importlib.machinery
            return importlib.machinery.PathFinder.find_spec(name, [d])

    sys.meta_path.append(_AgentenkitLateSite)
    _agentenkit_user_site = (d, _AgentenkitLateSite)


_agentenkit_site()
del _agentenkit_site


# agentenkit: the path python3 was run by, when the shell ran it through
# another one than /usr/bin's ($AGENTENKIT_PYTHON_EXE, taken out of the
# environment here, or given by the prestart program for its request), is
# sys.executable, as on Linux; and when that is a virtual environment's
# (pyvenv.cfg beside it or one folder up), sys.prefix and sys.path are the
# environment's as CPython's site module makes them: its site-packages,
# and without the user site unless include-system-site-packages is true.
_agentenkit_venv_undo = None  # how to take back what the last call made


def _agentenkit_venv(exe=None):
    global _agentenkit_venv_undo
    import os
    import site
    import sys
    user = _agentenkit_user_site
    if _agentenkit_venv_undo is not None:
        # a prestarted CPython's request: take back what its start's
        # environment made (it may have been a virtual environment's)
        prefix, exec_prefix, enable_user, added, user_removed = _agentenkit_venv_undo
        sys.prefix, sys.exec_prefix, site.ENABLE_USER_SITE = prefix, exec_prefix, enable_user
        for p in added:
            while p in sys.path:
                sys.path.remove(p)
        if user_removed and user is not None:
            sys.path.append(user[0])
            sys.meta_path.append(user[1])
    _agentenkit_venv_undo = (sys.prefix, sys.exec_prefix, site.ENABLE_USER_SITE, [], False)
    if exe is None:
        import posix
        exe = os.environ.pop("AGENTENKIT_PYTHON_EXE", None) or ""
        posix.environ.pop(b"AGENTENKIT_PYTHON_EXE", None)
    sys.executable = exe or "/usr/bin/python3"
    sys._base_executable = "/usr/bin/python3"
    if not exe:
        return
    exe_dir = os.path.dirname(exe)
    prefix = os.path.dirname(exe_dir)
    conf = None
    for c in (os.path.join(exe_dir, "pyvenv.cfg"), os.path.join(prefix, "pyvenv.cfg")):
        if os.path.isfile(c):
            conf = c
            break
    if conf is None:
        return
    system_site = "true"
    try:
        with open(conf, encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    key, _, value = line.partition("=")
                    if key.strip().lower() == "include-system-site-packages":
                        system_site = value.strip().lower()
    except OSError:
        return
    sys.prefix = sys.exec_prefix = prefix
    user_removed = False
    if system_site != "true":
        site.ENABLE_USER_SITE = False
        if user is not None and user[0] in sys.path:
            sys.path.remove(user[0])
            if user[1] in sys.meta_path:
                sys.meta_path.remove(user[1])
            user_removed = True
    venv_site = os.path.join(prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    # before the user site, as CPython's site adds them
    at = sys.path.index(user[0]) if user is not None and user[0] in sys.path else len(sys.path)
    tail = sys.path[at:]
    del sys.path[at:]
    before = set(sys.path)
    site.addsitedir(venv_site)
    added = [p for p in sys.path if p not in before]
    sys.path.extend(p for p in tail if p not in sys.path)
    _agentenkit_venv_undo = _agentenkit_venv_undo[:3] + (added, user_removed)
# agentenkit: what CPython for WASI lacks and a Linux box has, through the
# wasm adapter's control file (providers/wasm/pyproc.go): file modes (WASI
# carries a node's mode in st_dev, see vfs.WASIDevTag, and whether it is
# root's, vfs.WASIRootOwned; chmod and umask go to the host), the sandbox's
# user (uid 1000), and processes — subprocess,
# os.system and os.popen start their commands as children of the sandbox's
# shell. The host gives this process its control file's name in
# $AGENTENKIT_CTL, taken out of the environment here (and by the prestart
# program for a prestarted CPython) before any user code runs.
_ctl_token = None
_ctl_fd = None


def _agentenkit_ctl(req, data=b""):
    """One request to the control file: (result, bytes)."""
    global _ctl_fd
    import os
    import json
    if _ctl_token is None:
        raise OSError(58, "no process control in this Python (not started by the sandbox)")
    if _ctl_fd is None:
        _ctl_fd = os.open("/dev/agentenkit-ctl/" + _ctl_token, os.O_RDWR)
    os.write(_ctl_fd, json.dumps(req).encode() + b"\n" + data)
    buf = os.read(_ctl_fd, 1 << 21)
    n = int.from_bytes(buf[:4], "little")
    while len(buf) < 4 + n:
        more = os.read(_ctl_fd, 4 + n - len(buf))
        if not more:
            break
        buf += more
    head, _, out = buf[4:4 + n].partition(b"\n")
    ans = json.loads(head)
    return ans, out


def _wasi_errno(e):
    """The errno of one of wazero's experimental/sys Errno values."""
    import errno
    names = ("EACCES", "EAGAIN", "EBADF", "EEXIST", "EFAULT", "EINTR", "EINVAL", "EIO", "EISDIR",
             "ELOOP", "ENAMETOOLONG", "ENOENT", "ENOSYS", "ENOTDIR", "ERANGE", "ENOTEMPTY",
             "ENOTSOCK", "ENOTSUP", "EPERM", "EROFS")
    return getattr(errno, names[e - 1]) if 0 < e <= len(names) else errno.EIO


def _agentenkit_setup():
    import errno
    import os
    import sys
    global _ctl_token
    _ctl_token = os.environ.pop("AGENTENKIT_CTL", None)
    tag = 0x61656B6D
    root_owned = 1 << 16  # vfs.WASIRootOwned: the system folders, root's
    extra = ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns",
             "st_ctime_ns", "st_blksize", "st_blocks", "st_rdev")
    stat_result = os.stat_result
    _stat, _lstat, _fstat = os.stat, os.lstat, os.fstat

    # The modes of the image's own files (the standard library, the site
    # folder): read-only mounts whose WASI stat has no permission bits get
    # those Debian installs such files with, root's (so shutil.copymode of
    # a venv's scripts gives readable files).
    image_perm = {0o100000: 0o644, 0o040000: 0o755, 0o120000: 0o777}

    def extras(st):
        return {k: getattr(st, k) for k in extra if hasattr(st, k)}

    def fix(st):
        dev = st.st_dev
        if dev >> 32 != tag:
            kind = st.st_mode & 0o170000
            perm = image_perm.get(kind)
            if perm is None or st.st_mode & 0o7777:
                return st
            return stat_result((kind | perm,) + tuple(st)[1:], extras(st))
        mode = (st.st_mode & 0o170000) | (dev & 0o7777)
        owner = 0 if dev & root_owned else 1000
        return stat_result((mode, st.st_ino, 1, st.st_nlink, owner, owner, st.st_size, st[7], st[8], st[9]), extras(st))

    def stat(path, *, dir_fd=None, follow_symlinks=True):
        return fix(_stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks))

    def lstat(path, *, dir_fd=None):
        return fix(_lstat(path, dir_fd=dir_fd))

    def fstat(fd):
        return fix(_fstat(fd))

    def chmod(path, mode, *, dir_fd=None, follow_symlinks=True):
        if isinstance(path, int) or dir_fd is not None:
            raise OSError(58, "chmod of a file descriptor is not supported in this sandbox")
        p = os.path.abspath(os.fsdecode(path))
        ans, _ = _agentenkit_ctl({"op": "chmod", "path": p, "mode": int(mode) & 0o7777})
        e = ans["r"]
        if e:
            code = _wasi_errno(e)
            raise OSError(code, os.strerror(code), path)

    # /usr/bin and /usr/sbin are mounts of their own (engine.PythonUsrMounts) and WASI renames nothing from one mount to
    # another (ENOSYS): such a rename is the host's, on the same files.
    _rename, _replace = os.rename, os.replace

    def moved(f):
        def move(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
            try:
                return f(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)
            except OSError as e:
                if (e.errno != errno.ENOSYS or src_dir_fd is not None or dst_dir_fd is not None
                        or isinstance(src, int) or isinstance(dst, int) or _ctl_token is None):
                    raise
            a, b = (os.path.abspath(os.fsdecode(p)) for p in (src, dst))
            r = _agentenkit_ctl({"op": "rename", "path": a, "to": b})[0]["r"]
            if r:
                code = _wasi_errno(r)
                raise OSError(code, os.strerror(code), src, None, dst)
        move.__doc__ = f.__doc__
        return move

    os.rename, os.replace = moved(_rename), moved(_replace)

    def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
        try:
            st = stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        except OSError:
            return False
        need = (4 if mode & os.R_OK else 0) | (2 if mode & os.W_OK else 0) | (1 if mode & os.X_OK else 0)
        # the owner's bits for the user's own; the others' for root's (the
        # user is in none of root's groups)
        if st.st_uid == 1000:
            need <<= 6
        return st.st_mode & need == need

    umask_now = []

    def umask(mask):
        old = cur_umask()
        umask_now[0] = int(mask) & 0o777
        return old

    def cur_umask():
        if not umask_now:
            try:
                umask_now.append(_agentenkit_ctl({"op": "umask"})[0]["r"])
            except OSError:
                umask_now.append(0o022)
        return umask_now[0]

    # WASI creates every file 0o644 and folder 0o755 (Linux's modes under
    # umask 022, see vfs.WASI); under another umask, or for another mode
    # asked for, the mode CPython on Linux gives is set right after.
    def created(path, mode, default):
        want = mode & ~cur_umask() & 0o7777
        if want != default:
            try:
                chmod(path, want)
            except (OSError, TypeError, ValueError):
                pass

    _open, _mkdir, _bopen = os.open, os.mkdir, open

    def os_open(path, flags, mode=0o777, *, dir_fd=None):
        new = dir_fd is None and flags & os.O_CREAT and not os.path.lexists(path)
        fd = _open(path, flags, mode, dir_fd=dir_fd)
        if new:
            created(path, mode, 0o644)
        return fd

    def mkdir(path, mode=0o777, *, dir_fd=None):
        _mkdir(path, mode, dir_fd=dir_fd)
        if dir_fd is None:
            created(path, mode, 0o755)

    def io_open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):
        new = (opener is None and isinstance(file, (str, bytes, os.PathLike)) and
               any(c in mode for c in "wax") and not os.path.lexists(file))
        f = _bopen(file, mode, buffering, encoding, errors, newline, closefd, opener)
        if new:
            created(file, 0o666, 0o644)
        return f

    import builtins
    import io
    for name, f in (("open", os_open), ("mkdir", mkdir)):
        f.__doc__ = getattr(os, name).__doc__
        setattr(os, name, f)
    io_open.__doc__ = _bopen.__doc__
    builtins.open = io.open = io_open

    def system(command):
        import subprocess
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except Exception:
                pass
        code = subprocess.Popen(command, shell=True).wait()
        return code << 8 if code >= 0 else -code

    for name, f in (("stat", stat), ("lstat", lstat), ("fstat", fstat), ("chmod", chmod), ("access", access),
                    ("umask", umask), ("system", system)):
        f.__doc__ = getattr(os, name, f).__doc__
        setattr(os, name, f)
    for name in ("getuid", "geteuid", "getgid", "getegid"):
        if not hasattr(os, name):
            setattr(os, name, lambda: 1000)
    _agentenkit_venv()

    class SubprocessHook:
        """Patches subprocess when it is first imported."""

        def find_spec(self, name, path, target=None):
            if name != "subprocess":
                return None
            sys.meta_path.remove(self)
            spec = sys.modules["_frozen_importlib_external"].PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            loader_exec = spec.loader.exec_module

            def exec_module(module):
                loader_exec(module)
                _agentenkit_subprocess(module)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, SubprocessHook())


def _agentenkit_subprocess(sp):
    """Replaces subprocess.Popen with one whose children the sandbox's shell
    runs: run, call, check_call, check_output, getoutput, os.popen and
    os.system use it."""
    import io
    import os
    import sys
    import time

    WOULD_BLOCK, CLOSED = -1, -2

    def ctl(req, data=b""):
        return _agentenkit_ctl(req, data)

    def start(spec):
        # A start's strings travel as bytes (base64; internal/procspec), so
        # names that are not UTF-8 reach the child as they were.
        import binascii

        def b(s):
            return binascii.b2a_base64(os.fsencode(s), newline=False).decode("ascii")
        spec = dict(spec, args=[b(a) for a in spec["args"]], dir=b(spec["dir"]),
                    env=[b(e) for e in spec["env"]])
        return ctl({"op": "start", "spec": spec})[0]["r"]

    class _In(io.RawIOBase):
        def __init__(self, proc):
            self._p = proc

        def writable(self):
            return True

        def write(self, b):
            b = bytes(b)
            done = 0
            while done < len(b):
                r = ctl({"op": "write", "h": self._p._h}, b[done:done + (64 << 10)])[0]["r"]
                if r == CLOSED:
                    raise BrokenPipeError(32, "Broken pipe")
                if r < 0:
                    raise OSError(9, "Bad file descriptor")
                if r == 0:
                    self._p._pump()
                    ctl({"op": "poll", "ms": 10})
                done += r
            return done

        def close(self):
            if not self.closed and self._p._h is not None:
                ctl({"op": "closein", "h": self._p._h})
            super().close()

    class _Out(io.RawIOBase):
        def __init__(self, proc, fd):
            self._p, self._fd = proc, fd

        def readable(self):
            return True

        def readinto(self, b):
            while True:
                ans, out = ctl({"op": "read", "h": self._p._h, "fd": self._fd, "max": len(b)})
                r = ans["r"]
                if r > 0:
                    b[:len(out)] = out
                    return len(out)
                if r == 0 or r != WOULD_BLOCK:
                    return 0
                self._p._pump()
                ctl({"op": "poll", "ms": 50})

    def _fd_of(x):
        if isinstance(x, int):
            return x
        return x.fileno()

    class Popen:
        def __init__(self, args, bufsize=-1, executable=None, stdin=None, stdout=None, stderr=None,
                     preexec_fn=None, close_fds=True, shell=False, cwd=None, env=None,
                     universal_newlines=None, startupinfo=None, creationflags=0, restore_signals=True,
                     start_new_session=False, pass_fds=(), *, user=None, group=None, extra_groups=None,
                     encoding=None, errors=None, text=None, umask=-1, pipesize=-1, process_group=None):
            self.args = args
            self.returncode = None
            self.stdin = self.stdout = self.stderr = None
            self._h = None
            self.encoding, self.errors = encoding, errors
            self.text_mode = bool(encoding or errors or text or universal_newlines)
            self._out = {1: bytearray(), 2: bytearray()}
            self._eof = {1: False, 2: False}
            self._input_off = 0
            if isinstance(args, (str, bytes, os.PathLike)):
                argv = [args]
            else:
                argv = list(args)
            argv = [os.fsdecode(a) for a in argv]
            if not argv:
                raise IndexError("list index out of range")
            if shell:
                argv = ["sh", "-c"] + argv
            else:
                if executable is not None:
                    argv[0] = os.fsdecode(executable)
                if argv[0] == sys.executable:
                    argv[0] = "python3"
                self._check_exists(argv[0], cwd, env)
                argv = ["sh", "-c", '"$0" "$@"'] + argv
            if cwd is not None:
                cwd = os.path.abspath(os.fsdecode(cwd))
                if not os.path.isdir(cwd):
                    code = 20 if os.path.exists(cwd) else 2
                    raise OSError(code, os.strerror(code), cwd) if code == 20 else FileNotFoundError(2, os.strerror(2), cwd)
            else:
                cwd = os.getcwd()
            envmap = os.environ if env is None else env
            envl = [os.fsdecode(k) + "=" + os.fsdecode(v) for k, v in envmap.items()]
            mask = umask
            if mask < 0:
                mask = os.umask(0)
                os.umask(mask)
            for s in (sys.stdout, sys.stderr):
                try:
                    s.flush()
                except Exception:
                    pass
            spec = {"image": "busybox", "args": argv, "dir": cwd, "env": envl, "umask": mask,
                    "stderrToStdout": stderr == sp.STDOUT}
            h = start(spec)
            if h <= 0:
                if h == -3:
                    raise BlockingIOError(11, "Resource temporarily unavailable (too many processes in this command)")
                raise OSError(58, "the sandbox could not start the process")
            self._h = h
            self.pid = 1000 + h
            # stdin
            self._stdin_src = None
            if stdin == sp.PIPE:
                raw = _In(self)
                self.stdin = io.BufferedWriter(raw, 64 << 10) if bufsize != 0 else raw
                if self.text_mode:
                    self.stdin = io.TextIOWrapper(self.stdin, encoding=encoding, errors=errors,
                                                  write_through=True, line_buffering=(bufsize == 1))
            elif stdin == sp.DEVNULL:
                ctl({"op": "closein", "h": h})
            elif stdin is None:
                self._stdin_src = 0
            else:
                self._stdin_src = _fd_of(stdin)
            # stdout, stderr
            self._sinks = {}
            for fd, target in ((1, stdout), (2, stderr)):
                if fd == 2 and target == sp.STDOUT:
                    self._eof[2] = True
                    continue
                if target == sp.PIPE:
                    stream = io.BufferedReader(_Out(self, fd))
                    if self.text_mode:
                        stream = io.TextIOWrapper(stream, encoding=encoding, errors=errors)
                    setattr(self, "stdout" if fd == 1 else "stderr", stream)
                elif target == sp.DEVNULL:
                    self._sinks[fd] = None
                elif target is None:
                    self._sinks[fd] = fd
                else:
                    try:
                        target.flush()
                    except Exception:
                        pass
                    self._sinks[fd] = _fd_of(target)

        @staticmethod
        def _check_exists(name, cwd, env):
            path = os.pathsep.join(os.get_exec_path(env))
            # As execve(2) would: found (0), a folder or a file without
            # the exec bit (EACCES), nothing (ENOENT), a file with neither
            # #! nor a format the sandbox runs (ENOEXEC).
            script = ('p=$(command -v -- "$1") || { case $1 in */*) [ -d "$1" ] && exit 3; [ -e "$1" ] && exit 4;; '
                      '*) IFS=:; for d in $PATH; do [ -f "${d:-.}/$1" ] && exit 4; done;; esac; exit 5; }; '
                      '[ -f "$p" ] && { [ "$(head -c 2 -- "$p")" = "#!" ] || exit 6; }; exit 0')
            spec = {"image": "busybox", "args": ["sh", "-c", script, "sh", name],
                    "dir": os.path.abspath(cwd) if cwd else os.getcwd(), "env": ["PATH=" + path]}
            h = start(spec)
            if h <= 0:
                return
            ctl({"op": "closein", "h": h})
            while True:
                ans = ctl({"op": "wait", "h": h})[0]
                if ans["r"] != -1:
                    break
                ctl({"op": "poll", "ms": 50})
            ctl({"op": "free", "h": h})
            code = ans["r"]
            if code == 3 or code == 4:
                raise PermissionError(13, "Permission denied", name)
            if code == 5:
                raise FileNotFoundError(2, "No such file or directory", name)
            if code == 6:
                raise OSError(8, "Exec format error", name)

        def _pump(self):
            """Moves what is ready: input the child asks for from an inherited
            stdin, output to inherited or given descriptors. Returns whether
            anything moved."""
            moved = False
            if self._stdin_src is not None:
                w = ctl({"op": "wanted", "h": self._h})[0]["r"]
                if w == 1:
                    try:
                        chunk = os.read(self._stdin_src, 64 << 10)
                    except OSError:
                        chunk = b""
                    if chunk:
                        _In(self).write(chunk)
                    else:
                        ctl({"op": "closein", "h": self._h})
                        self._stdin_src = None
                    moved = True
                elif w < 0:
                    self._stdin_src = None
            for fd, sink in self._sinks.items():
                if self._eof[fd]:
                    continue
                while True:
                    ans, out = ctl({"op": "read", "h": self._h, "fd": fd, "max": 1 << 20})
                    r = ans["r"]
                    if r > 0:
                        moved = True
                        if sink is not None:
                            while out:
                                out = out[os.write(sink, out):]
                        continue
                    if r != WOULD_BLOCK:
                        self._eof[fd] = True
                    break
            return moved

        def _done(self):
            """Whether the child ended; then its returncode is set and
            what it wrote to inherited or given descriptors is there."""
            if self.returncode is not None:
                return True
            ans = ctl({"op": "wait", "h": self._h})[0]
            if ans["r"] == -1 and not ans.get("sig"):
                return False
            while self._sinks and not all(self._eof[fd] for fd in self._sinks):
                if not self._pump():
                    ctl({"op": "poll", "ms": 10})
            self.returncode = -ans["sig"] if ans.get("sig") else ans["r"]
            return True

        def poll(self):
            if self.returncode is None:
                self._pump()
                self._done()
            return self.returncode

        def wait(self, timeout=None):
            if self.returncode is not None:
                return self.returncode
            end = None if timeout is None else time.monotonic() + timeout
            while True:
                moved = self._pump()
                if self._done():
                    return self.returncode
                if end is not None and time.monotonic() >= end:
                    raise sp.TimeoutExpired(self.args, timeout)
                if not moved:
                    ms = 50 if end is None else max(1, min(50, int((end - time.monotonic()) * 1000)))
                    ctl({"op": "poll", "ms": ms})

        def communicate(self, input=None, timeout=None):
            end = None if timeout is None else time.monotonic() + timeout
            if input is not None and self.text_mode and isinstance(input, str):
                input = input.encode(self.encoding or "utf-8", self.errors or "strict")
            pipes = {}
            if self.stdout is not None:
                pipes[1] = self.stdout
            if self.stderr is not None:
                pipes[2] = self.stderr
            stdin_open = self.stdin is not None and not self.stdin.closed
            if stdin_open:
                try:
                    self.stdin.flush()
                except BrokenPipeError:
                    pass
            while True:
                moved = self._pump()
                if stdin_open:
                    data = input or b""
                    if self._input_off < len(data):
                        r = ctl({"op": "write", "h": self._h}, data[self._input_off:self._input_off + (64 << 10)])[0]["r"]
                        if r > 0:
                            self._input_off += r
                            moved = True
                        elif r < 0:
                            self._input_off = len(data)
                    if self._input_off >= len(data):
                        try:
                            self.stdin.close()
                        except BrokenPipeError:
                            pass
                        stdin_open = False
                for fd in pipes:
                    while not self._eof[fd]:
                        ans, out = ctl({"op": "read", "h": self._h, "fd": fd, "max": 1 << 20})
                        r = ans["r"]
                        if r > 0:
                            self._out[fd] += out
                            moved = True
                            continue
                        if r != WOULD_BLOCK:
                            self._eof[fd] = True
                        break
                if all(self._eof[fd] for fd in pipes) and not stdin_open and self._done():
                    break
                if end is not None and time.monotonic() >= end:
                    exc = sp.TimeoutExpired(self.args, timeout)
                    exc.stdout = bytes(self._out[1]) if 1 in pipes else None
                    exc.stderr = bytes(self._out[2]) if 2 in pipes else None
                    raise exc
                if not moved:
                    ms = 50 if end is None else max(1, min(50, int((end - time.monotonic()) * 1000)))
                    ctl({"op": "poll", "ms": ms})
            self.wait()
            res = []
            for fd in (1, 2):
                if fd not in pipes:
                    res.append(None)
                    continue
                data = bytes(self._out[fd])
                if self.text_mode:
                    data = data.decode(self.encoding or "utf-8", self.errors or "strict")
                    data = data.replace("\r\n", "\n").replace("\r", "\n")
                res.append(data)
                try:
                    pipes[fd].close()
                except Exception:
                    pass
            return tuple(res)

        def send_signal(self, sig):
            if self.returncode is None:
                ctl({"op": "kill", "h": self._h, "sig": int(sig)})

        def terminate(self):
            self.send_signal(15)

        def kill(self):
            self.send_signal(9)

        def __enter__(self):
            return self

        def __exit__(self, exc_type, value, traceback):
            for s in (self.stdout, self.stderr):
                if s is not None:
                    try:
                        s.close()
                    except Exception:
                        pass
            try:
                if self.stdin is not None:
                    self.stdin.close()
            except Exception:
                pass
            finally:
                if exc_type == KeyboardInterrupt:
                    return
                self.wait()

        def __repr__(self):
            return "<Popen: returncode: {} args: {!r}>".format(self.returncode, self.args)

        __class_getitem__ = classmethod(lambda cls, item: cls)

    Popen.__module__ = "subprocess"
    sp.Popen = Popen


_agentenkit_setup()
del _agentenkit_setup
