"""The official Supabase Storage client for Python (storage3, from PyPI) against the sandbox.

Usage: storage3_flow.py SANDBOX_URL ANON_KEY DECK_BINARY DECK_HOME

Each step is what storage3's documentation shows a photo screen doing, with the answers real
Supabase Storage gives (its own tests): a multipart upload, download, exists, info, list,
signed download and upload URLs, update, move, copy, remove, the upsert conflict and the size
limit (HTTP 400 carrying "413"). Then the built deck and storage3 must see the same photo: one
uploaded by storage3 is the one `deck prefs photo get` returns, one set by deck is the one
storage3 downloads, and one removed by storage3 makes deck say there is none. Prints one line
per step and exits non-zero at the first failure.
"""

import json
import os
import struct
import subprocess
import sys
import zlib

import httpx
from storage3 import SyncStorageClient
from storage3.exceptions import StorageApiError

BUCKET = "profile-photos"
ATHLETE = "athlete@sandbox.test"
PARENT = "parent@sandbox.test"


def png(width, height, seed=0):
    """A valid PNG of the given size (grey stripes; `seed` changes the bytes)."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes(((x + y + seed) % 256) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {what}")


def refused(call, status, what):
    """The call raises StorageApiError carrying `status` (real Storage's statusCode, as text)."""
    try:
        call()
    except StorageApiError as error:
        check(str(error.status) == status, f"{what}: statusCode {error.status} (want {status}; {error.message})")
        return
    check(False, f"{what}: no error")


def sign_in(url, anon_key, email):
    answer = httpx.post(
        f"{url}/auth/v1/token?grant_type=password",
        headers={"apikey": anon_key},
        json={"email": email, "password": "sandbox"},
    )
    answer.raise_for_status()
    session = answer.json()
    return session["access_token"], session["user"]["id"]


def storage(url, anon_key, token):
    return SyncStorageClient(f"{url}/storage/v1/", {"apikey": anon_key, "Authorization": f"Bearer {token}"})


def main():
    url, anon_key, deck, home = sys.argv[1:5]
    token, uid = sign_in(url, anon_key, ATHLETE)
    client = storage(url, anon_key, token)

    buckets = client.list_buckets()
    check([b.id for b in buckets] == [BUCKET], "list_buckets names profile-photos")
    bucket_info = client.get_bucket(BUCKET)
    check(bucket_info.public is False and bucket_info.file_size_limit == 5242880, "get_bucket: private, 5 MB")
    refused(lambda: client.get_bucket("no-such-bucket"), "404", "get_bucket of another bucket")

    photos = client.from_(BUCKET)
    avatar = f"{uid}/avatar"
    first = png(40, 30, 1)
    uploaded = photos.upload(avatar, first, {"content-type": "image/png"})
    check(uploaded.full_path == f"{BUCKET}/{avatar}", f"upload (multipart): {uploaded.full_path}")
    check(photos.download(avatar) == first, "download returns the uploaded bytes")
    check(photos.exists(avatar), "exists: True for the avatar")
    check(not photos.exists(f"{uid}/nothing-here"), "exists: False for a name never stored")

    info = photos.info(avatar)
    check(info["size"] == len(first) and info["content_type"] == "image/png", "info: size and content type")
    check(info["cache_control"] == "max-age=3600", f"info: cache control {info['cache_control']}")
    check(isinstance(info["version"], str) and info["version"], "info: a version")

    refused(lambda: photos.upload(avatar, first, {"content-type": "image/png"}), "409", "upload over it without upsert")
    second = png(20, 20, 2)
    photos.upload(avatar, second, {"content-type": "image/png", "upsert": "true"})
    check(photos.download(avatar) == second, "upload with upsert replaces it")
    third = png(16, 8, 3)
    photos.update(avatar, third, {"content-type": "image/png"})
    check(photos.download(avatar) == third, "update replaces it")
    refused(lambda: photos.update(f"{uid}/missing", third, {"content-type": "image/png"}), "404", "update of nothing")

    listed = photos.list(uid)
    check([entry["name"] for entry in listed] == ["avatar"], f"list of the folder: {[e['name'] for e in listed]}")
    check(listed[0]["metadata"]["mimetype"] == "image/png", "list: the entry's metadata")
    folders = photos.list()
    check([entry["name"] for entry in folders] == [uid], "list of the bucket: the user's folder")

    signed = photos.create_signed_url(avatar, 60)
    check(httpx.get(signed["signedURL"]).content == third, "a signed URL downloads it without a token")
    check(httpx.get(signed["signedURL"] + "x").status_code == 400, "a changed token is refused")

    target = f"{uid}/from-signed-url"
    upload_url = photos.create_signed_upload_url(target)
    photos.upload_to_signed_url(target, upload_url["token"], second, {"content-type": "image/png"})
    check(photos.download(target) == second, "upload_to_signed_url stores it")

    photos.move(target, f"{uid}/moved")
    check(not photos.exists(target) and photos.exists(f"{uid}/moved"), "move renames it")
    copied = photos.copy(f"{uid}/moved", f"{uid}/copied")
    check(copied.get("Key") == f"{BUCKET}/{uid}/copied", "copy answers the copy's key")
    check(photos.download(f"{uid}/copied") == second, "the copy has the bytes")
    removed = photos.remove([f"{uid}/moved", f"{uid}/copied"])
    check(sorted(r["name"] for r in removed) == [f"{uid}/copied", f"{uid}/moved"], "remove answers what it deleted")
    check(not photos.exists(f"{uid}/copied"), "removed objects are gone")

    big = png(16, 16) + bytes(5 * 1024 * 1024)
    refused(lambda: photos.upload(f"{uid}/big", big, {"content-type": "image/png"}), "413", "over 5 MB")
    refused(lambda: photos.upload(f"{uid}/text", b"hello", {}), "415", "a text/plain file (storage3's default type)")

    parent_token, _ = sign_in(url, anon_key, PARENT)
    parent = storage(url, anon_key, parent_token).from_(BUCKET)
    check(parent.download(avatar) == third, "a linked parent downloads the athlete's photo")
    refused(lambda: parent.upload(avatar, first, {"content-type": "image/png", "upsert": "true"}), "403", "a parent uploads")

    # The same photo for deck and storage3.
    environment = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/config", XDG_STATE_HOME=f"{home}/state")
    environment.update(XDG_DATA_HOME=f"{home}/data", XDG_RUNTIME_DIR=f"{home}/run", DECK_ENV="local")
    for service in ("auth", "recruiting", "geocoder", "nudge", "flyr", "kiosk"):
        environment[f"DECK_{service.upper()}_URL"] = url

    def run_deck(*arguments, stdin=None):
        return subprocess.run([deck, *arguments], input=stdin, env=environment, capture_output=True, text=True)

    login = run_deck("auth", "login", "--email", ATHLETE, "--password-stdin", stdin="sandbox\n")
    check(login.returncode == 0, f"deck auth login: {login.stderr.strip()}")
    got = run_deck("prefs", "photo", "get", "--output", f"{home}/from-deck.png")
    check(got.returncode == 0, f"deck prefs photo get: {got.stderr.strip()}")
    with open(f"{home}/from-deck.png", "rb") as file:
        check(file.read() == third, "deck gets the photo storage3 uploaded")

    from_deck = png(24, 12, 7)
    with open(f"{home}/set.png", "wb") as file:
        file.write(from_deck)
    stored = run_deck("prefs", "photo", "set", f"{home}/set.png")
    check(stored.returncode == 0, f"deck prefs photo set: {stored.stderr.strip()}")
    check(photos.download(avatar) == from_deck, "storage3 downloads the photo deck set")
    check(json.loads(json.dumps(photos.info(avatar)))["size"] == len(from_deck), "storage3's info of deck's photo")

    photos.remove([avatar])
    none = run_deck("prefs", "photo", "get", "--output", f"{home}/none.png")
    check(none.returncode != 0 and "No profile photo is set" in none.stderr, f"deck: no photo ({none.stderr.strip()})")
    print("storage3: every step passed")


if __name__ == "__main__":
    main()
