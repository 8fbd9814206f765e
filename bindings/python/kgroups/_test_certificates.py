# SPDX-License-Identifier: Apache-2.0
"""A throwaway CA and certificates for a secured Broker, made by `kgroups certs` (the CLI's
OpenSSL code; no openssl binary needed).

The kgroups CLI, first found wins: the KGROUPS_CLI environment variable, the kgroups shipped
inside this package (kgroups/bin/kgroups), the one beside the kgroupsd being run (a build
tree's tools/cli/kgroups next to tools/kgroupsd/kgroupsd, or the same folder), then kgroups on
PATH.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

BUNDLED_CLI = pathlib.Path(__file__).resolve().parent / "bin" / "kgroups"


def find_kgroups_cli(kgroupsd: pathlib.Path) -> pathlib.Path:
    """The kgroups CLI to run. Raises FileNotFoundError listing every place it looked."""
    from_environment = os.environ.get("KGROUPS_CLI")
    if from_environment:
        path = pathlib.Path(from_environment)
        if not _is_executable(path):
            raise FileNotFoundError(f"KGROUPS_CLI names {path}, which is not an executable file")
        return path
    candidates = [BUNDLED_CLI, kgroupsd.parent.parent / "cli" / "kgroups",
                  kgroupsd.parent / "kgroups"]
    for candidate in candidates:
        if _is_executable(candidate):
            return candidate
    on_path = shutil.which("kgroups")
    if on_path:
        return pathlib.Path(on_path)
    raise FileNotFoundError(
        "a TLS listener needs certificates, made by the kgroups CLI (`kgroups certs`), which "
        "was not found; looked at: KGROUPS_CLI (not set), "
        + ", ".join(str(candidate) for candidate in candidates)
        + ", kgroups on PATH. Set KGROUPS_CLI, or pass Security(certs=DIR) with a folder "
        "`kgroups certs DIR` wrote")


def write_test_certificates(kgroups_cli: pathlib.Path, directory: pathlib.Path,
                            client_cn: str) -> None:
    """Runs `kgroups certs directory --client-cn client_cn`. Raises RuntimeError with its
    stderr if it fails."""
    command = [str(kgroups_cli), "certs", str(directory), "--client-cn", client_cn]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed (exit code {result.returncode}): "
                           f"{result.stderr.strip()}")


def _is_executable(path: pathlib.Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)
