"""Writing output files safely, once for every command (``encode -o``, ``render -o``, ``convert
-o``, ``generate -o``, ``bench --summary`` / ``--plot`` / ``--csv``).

One rule for where output goes (``fillsmt --help`` gives it too): ``-`` is
standard output; the folder of a file named on its own must exist (a misspelt folder is an
error, not a new folder), while the folders of a series of files (a name with ``{n}`` or
``{seed}``, ``generate --count``) and an output folder (``export -o DIR``) are made when missing.
A new file is written beside its target under a temporary name and moved into place (so a
reader never sees half a file), gets the mode the user's umask gives (0644 under umask 022), and
never replaces an existing file without ``force`` nor, ever, the input it was made from, nor
anything that is not a regular file (``/dev/zero``, ``/dev/null``, a pipe). Every
problem is an :class:`~fillsmt.errors.InputError` naming the file (exit 2).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable

from fillsmt.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_target(
    output: str,
    *,
    force: bool = True,
    protect: str | None = None,
    option: str = "",
    series: bool = False,
    make_folder: bool = False,
) -> Path:
    """The path ``output`` after the checks every written file gets (see the module text); with
    ``series`` (one of several files a pattern names) a missing folder is made, else it is an
    error. ``make_folder`` is the name this switch had when only ``bench``'s reports made their
    folders; it no longer makes a single file's folder (the module text)."""
    from pathlib import Path  # here, not at the top: only a command that writes a file needs it

    where = f"{option} {output}" if option else output
    target = Path(output)
    if protect not in (None, "-") and target.exists() and Path(protect).exists() and target.samefile(protect):
        raise InputError(f"{where}: refusing to overwrite the puzzle file itself")
    if target.is_dir():
        raise InputError(f"{where}: is a directory; give a file name")
    if target.exists() and not target.is_file():
        raise InputError(f"{where}: is not a regular file (a device, pipe or socket); give a file name")
    if target.exists() and not force:
        raise InputError(f"{where}: already exists; use --force to replace it")
    directory = target.parent if str(target.parent) else Path(".")
    if series and not directory.exists():
        try:
            directory.mkdir(parents=True)
        except OSError as e:
            raise InputError(f"{where}: cannot create the directory {directory}: {e.strerror}") from None
    if not directory.is_dir():
        raise InputError(f"{where}: the directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError(f"{where}: cannot write in the directory {directory} (permission denied)")
    return target


def write_file(
    output: str,
    data: str | bytes | Iterable[str],
    *,
    force: bool = False,
    protect: str | None = None,
    option: str = "",
    series: bool = False,
    make_folder: bool = False,
) -> None:
    """Write ``data`` to ``output`` atomically (see the module text); ``data`` may be pieces of
    text, written as they come (a large script is never held whole). ``series`` and
    ``make_folder``: as for :func:`check_target`."""
    import tempfile
    from pathlib import Path

    target = check_target(output, force=force, protect=protect, option=option, series=series)
    where = f"{option} {output}" if option else output
    try:
        fd, tmp = tempfile.mkstemp(
            dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as e:
        raise InputError(f"{where}: cannot write: {e.strerror}") from None
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            for piece in [data] if isinstance(data, (str, bytes)) else data:
                f.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
        os.replace(tmp, target)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{where}: cannot write: {e.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["check_target", "write_file"]
