"""The signature helper receivers copy: what it accepts and what it refuses."""

from __future__ import annotations

from app.webhooks.signing import sign, signature, verify

SECRET = "whsec_test"
BODY = b'{"id":1,"type":"result.recorded"}'


def test_a_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    header = sign(SECRET, BODY, timestamp=1_800_000_000)
    assert header == f"t=1800000000,v1={signature(SECRET, 1_800_000_000, BODY)}"
    assert len(header.split("v1=")[1]) == 64
    assert verify(SECRET, header, BODY, now=1_800_000_100)
    assert verify(SECRET, header, BODY.decode(), now=1_800_000_100)


def test_tampering_a_wrong_secret_or_an_old_timestamp_is_refused() -> None:
    header = sign(SECRET, BODY, timestamp=1_800_000_000)
    assert not verify(SECRET, header, BODY + b" ", now=1_800_000_000)
    assert not verify("whsec_other", header, BODY, now=1_800_000_000)
    assert not verify(SECRET, header, BODY, now=1_800_000_301)
    assert verify(SECRET, header, BODY, tolerance=600, now=1_800_000_301)
    forged = header.replace("t=1800000000", "t=1800000300")
    assert not verify(SECRET, forged, BODY, now=1_800_000_300)


def test_malformed_headers_are_refused() -> None:
    for header in ("", "v1=abc", "t=1800000000", "t=x,v1=abc", "garbage"):
        assert not verify(SECRET, header, BODY, now=1_800_000_000)


def test_any_of_several_v1_signatures_may_match() -> None:
    good = sign(SECRET, BODY, timestamp=1_800_000_000)
    header = f"t=1800000000,v1={'0' * 64},{good.split(',')[1]}"
    assert verify(SECRET, header, BODY, now=1_800_000_000)
