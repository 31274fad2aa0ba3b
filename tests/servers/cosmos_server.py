"""A real Cosmos DB for NoSQL server for tests: `@vercel/cosmosdb-server` (Node) on 127.0.0.2.

The npm package is installed into a cache directory by the set-up step (`make test-setup` runs
`python -m tests.servers.cosmos_server install`, i.e. `npm install --prefix`), never by a test: where
it is missing the Cosmos tests skip with that one reason.
The server gets a certificate from a throw-away CA made here with `cryptography`; the SDK verifies
TLS for every host except the literal `localhost`/`127.0.0.1`, so the server listens on 127.0.0.2
and clients trust the CA through REQUESTS_CA_BUNDLE / SSL_CERT_FILE (or `connection_verify`).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

PACKAGE = "@vercel/cosmosdb-server"
VERSION = "1.0.1"
HOST = "127.0.0.2"
_LAUNCHER = r"""
const fs = require("fs");
const { createHttpsServer } = require(process.argv[2]);
const server = createHttpsServer({ cert: fs.readFileSync(process.argv[3]),
                                   key: fs.readFileSync(process.argv[4]), keepAlive: true });
server.listen(Number(process.argv[6] || 0), process.argv[5], () => {
  process.stdout.write("PORT " + server.address().port + "\n");
});
process.stdin.on("end", () => process.exit(0));  // the test process went away: stop
process.stdin.resume();
"""


class ServerUnavailable(RuntimeError):
    """npm (or node) cannot provide the server here; the one reason tests are skipped."""


def cache_dir() -> Path:
    """Where the npm package lives between runs (WORLDFORGE_TEST_CACHE overrides)."""
    base = os.environ.get("WORLDFORGE_TEST_CACHE") or Path.home() / ".cache" / "worldforge-tests"
    return Path(base) / "cosmosdb-server"


def _package(prefix: Path) -> Path:
    return prefix / "node_modules" / "@vercel" / "cosmosdb-server"


def installed(prefix: Path | None = None) -> Path:
    """The installed package dir; ServerUnavailable (the skip reason) when the set-up has not run."""
    pkg = _package(prefix or cache_dir())
    if not (pkg / "lib" / "index.js").exists():
        raise ServerUnavailable(
            f"{PACKAGE} is not installed in {pkg.parents[2]}: `make test-setup` installs it"
        )
    return pkg


def install(prefix: Path | None = None) -> Path:
    """`npm install --prefix <cache> @vercel/cosmosdb-server@VERSION` once; the package dir.
    Called by the set-up step (and bench/memory_cosmos.py), never by a test."""
    prefix = prefix or cache_dir()
    pkg = _package(prefix)
    if (pkg / "lib" / "index.js").exists():
        return pkg
    npm, node = shutil.which("npm"), shutil.which("node")
    if not npm or not node:
        raise ServerUnavailable("node/npm are not on PATH (needed for @vercel/cosmosdb-server)")
    prefix.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(prefix),
                "--no-audit",
                "--no-fund",
                f"{PACKAGE}@{VERSION}",
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired as exc:
        raise ServerUnavailable("npm install @vercel/cosmosdb-server timed out") from exc
    if proc.returncode != 0 or not (pkg / "lib" / "index.js").exists():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ServerUnavailable(f"npm could not install {PACKAGE}: {tail[0][:160]}")
    return pkg


def make_ca(directory: Path, host: str = HOST) -> tuple[Path, Path, Path]:
    """A throw-away CA and a server certificate for `host`: (ca.pem, cert.pem, key.pem)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "worldforge test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    paths = directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


@dataclass
class CosmosServer:
    """One running server: its endpoint, the CA that signs its certificate, the process."""

    endpoint: str
    ca_file: Path
    proc: subprocess.Popen
    cert_file: Path
    key_file: Path

    def restart(self) -> None:
        """Stop the server (SIGKILL) and start a new one on the same port and certificate: it
        comes back empty, as a restarted emulator, or a deleted and recreated account does."""
        self.proc.kill()
        self.proc.wait(timeout=5)
        self.stop()
        node = shutil.which("node")
        assert node is not None  # it ran the first one
        host, port = urlsplit(self.endpoint).hostname or HOST, urlsplit(self.endpoint).port or 0
        launcher = self.ca_file.parent / "launch.js"
        self.proc, _ = _launch(
            node, launcher, installed(), self.cert_file, self.key_file, host, port
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def start(directory: Path, *, host: str = HOST, package: Path | None = None) -> CosmosServer:
    """Start the server on `host`, port 0, behind a fresh CA in `directory`."""
    pkg = package or installed()
    node = shutil.which("node")
    if node is None:
        raise ServerUnavailable("node is not on PATH")
    ca, cert, key = make_ca(directory, host)
    launcher = directory / "launch.js"
    launcher.write_text(_LAUNCHER)
    proc, port = _launch(node, launcher, pkg, cert, key, host, 0)
    return CosmosServer(f"https://{host}:{port}", ca, proc, cert, key)


def _launch(
    node: str, launcher: Path, pkg: Path, cert: Path, key: Path, host: str, port: int
) -> tuple[subprocess.Popen[str], int]:
    """The node process listening on `host`:`port` (0: a free port), and its port."""
    proc = subprocess.Popen(
        [node, str(launcher), str(pkg), str(cert), str(key), host, str(port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        proc.kill()
        raise ServerUnavailable(f"cosmosdb-server did not start ({line.strip()[:80]!r})")
    return proc, int(line.split()[1])


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["install"]:
        sys.exit("usage: python -m tests.servers.cosmos_server install")
    try:
        print(f"cosmosdb-server: {install()}")
    except ServerUnavailable as exc:  # the Cosmos tests will skip with the same reason
        print(f"cosmosdb-server not installed: {exc}")
