"""Real RS256 ID tokens for the non-emulator path: a key pair and a
self-signed certificate play Google's token signer, served to firebase-admin
through a requests adapter in place of Google's certificate URL (the
machine's network is closed). Everything else is firebase-admin's own code."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from google.auth import crypt, jwt

CERT_URL_PREFIX = "https://www.googleapis.com/"
# The real (non-demo) project of these tests.
PROJECT = "manga-hiroba-signed-test"


@dataclass
class Signer:
    key_id: str
    private_pem: bytes
    cert_pem: str

    @classmethod
    def create(cls, key_id: str) -> Signer:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "securetoken.test")])
        now = datetime.now(UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(days=1))
            .not_valid_after(now + timedelta(days=1))
            .sign(key, hashes.SHA256())
        )
        private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        return cls(key_id, private, cert.public_bytes(serialization.Encoding.PEM).decode())

    def token(self, project_id: str, uid: str = "user-1", *, key_id: str | None = None, **claims) -> str:
        now = int(time.time())
        payload = {
            "iss": f"https://securetoken.google.com/{project_id}",
            "aud": project_id,
            "auth_time": now,
            "user_id": uid,
            "sub": uid,
            "iat": now,
            "exp": now + 3600,
            "email": f"{uid}@example.com",
            "name": "署名 ユーザー",
            "firebase": {"sign_in_provider": "google.com", "identities": {}},
            **claims,
        }
        signer = crypt.RSASigner.from_string(self.private_pem, key_id=key_id or self.key_id)
        return jwt.encode(signer, payload).decode()


class CertificateAdapter(requests.adapters.BaseAdapter):
    """Answers Google's public-certificate URL with our signer's certificate."""

    def __init__(self, certificates: dict[str, str]):
        super().__init__()
        self.certificates = certificates

    def send(self, request, **kwargs):
        response = requests.Response()
        response.status_code = 200
        response._content = json.dumps(self.certificates).encode()
        response.headers["Content-Type"] = "application/json"
        response.url = request.url
        response.request = request
        return response

    def close(self):
        pass
