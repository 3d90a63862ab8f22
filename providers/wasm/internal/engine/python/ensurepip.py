# agentenkit: ensurepip for the sandbox, whose pip is the shell's own
# (shell/pip, /usr/bin/pip), not a wheel CPython could install. In a
# virtual environment (`python3 -m venv` runs `-m ensurepip --upgrade
# --default-pip` with the environment's python) it links the environment's
# bin/pip3 and bin/pip3.X (and bin/pip with --default-pip; only pip3.X with
# --altinstall) to /usr/bin/pip, which then installs into the environment
# (it finds it by the path it was run by, as this CPython does). Elsewhere
# pip is there already, and it says so. Options as CPython 3.11's.
import os
import sys

__all__ = ["version", "bootstrap"]

_PIP_VERSION = "24.0"  # shell/pip.Version


def version():
    """Returns a string specifying the bundled version of pip."""
    return _PIP_VERSION


def bootstrap(*, root=None, upgrade=False, user=False, altinstall=False, default_pip=False, verbosity=0):
    """Bootstrap pip into the current Python installation (or the given root directory)."""
    _bootstrap(root=root, upgrade=upgrade, user=user, altinstall=altinstall,
               default_pip=default_pip, verbosity=verbosity)


def _bootstrap(*, root=None, upgrade=False, user=False, altinstall=False, default_pip=False, verbosity=0):
    if altinstall and default_pip:
        raise ValueError("Cannot use altinstall and default_pip together")
    if sys.prefix == sys.base_prefix or user:
        site = os.path.join(os.path.expanduser("~"), ".local/lib/python%d.%d/site-packages" % sys.version_info[:2])
        print("Requirement already satisfied: pip in %s (%s)" % (site, _PIP_VERSION))
        return 0
    names = ["pip%d.%d" % sys.version_info[:2]]
    if not altinstall:
        names.insert(0, "pip%d" % sys.version_info[0])
        if default_pip:
            names.insert(0, "pip")
    bindir = os.path.join(root or "", sys.prefix.lstrip("/") if root else sys.prefix, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name in names:
        p = os.path.join(bindir, name)
        if not os.path.lexists(p):
            os.symlink("/usr/bin/pip", p)
    return 0


def _main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ensurepip")
    parser.add_argument("--version", action="version", version="pip {}".format(version()),
                        help="Show the version of pip that is bundled with this Python.")
    parser.add_argument("-v", "--verbose", action="count", default=0, dest="verbosity",
                        help=("Give more output. Option is additive, and can be used up to 3 times."))
    parser.add_argument("-U", "--upgrade", action="store_true", default=False,
                        help="Upgrade pip and dependencies, even if already installed.")
    parser.add_argument("--user", action="store_true", default=False, help="Install using the user scheme.")
    parser.add_argument("--root", default=None, help="Install everything relative to this alternate root directory.")
    parser.add_argument("--altinstall", action="store_true", default=False,
                        help=("Make an alternate install, installing only the X.Y versioned "
                              "scripts (Default: pipX, pipX.Y, easy_install-X.Y)."))
    parser.add_argument("--default-pip", action="store_true", default=False,
                        help=("Make a default pip install, installing the unqualified pip "
                              "and easy_install in addition to the versioned scripts."))
    args = parser.parse_args(argv)
    return _bootstrap(root=args.root, upgrade=args.upgrade, user=args.user, verbosity=args.verbosity,
                      altinstall=args.altinstall, default_pip=args.default_pip)


if __name__ == "__main__":
    sys.exit(_main())
