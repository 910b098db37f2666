"""Every page and API response carries the security headers: a Content-Security-Policy that
allows no inline script, nosniff, no Referer, no framing. The CDN-loaded Swagger page is gone."""

from __future__ import annotations

import pytest

from meeple.server.inbound import MAX_MESSAGE_BYTES
from tests.server.conftest import create


def _policy(header: str) -> dict[str, list[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.fixture
def table(client) -> str:
    created: dict[str, str] = create(client, public=True)
    return created["table_id"]


@pytest.mark.parametrize("method,path,status", [
    ("GET", "/", 200),
    ("GET", "/tables/{table}", 200),
    ("GET", "/static/table.js", 200),
    ("GET", "/static/style.css", 200),
    ("GET", "/api/games", 200),
    ("GET", "/api/tables", 200),
    ("GET", "/api/tables/{table}/state", 200),
    ("GET", "/api/tables/{table}/record", 409),
    ("GET", "/api/tables/nope", 404),
    ("POST", "/api/tables/{table}/actions", 401),
    ("GET", "/openapi.json", 200),
])
def test_every_response_carries_the_security_headers(client, table, method, path, status):
    answer = client.request(method, path.format(table=table), json={"version": 0, "action_id": 0})
    assert answer.status_code == status
    policy = _policy(answer.headers["content-security-policy"])
    assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-frame-options"] == "DENY"


def test_a_refused_oversized_body_carries_them_too(client):
    answer = client.post("/api/tables", content=b"x" * (MAX_MESSAGE_BYTES + 1),
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "script-src 'self'" in answer.headers["content-security-policy"]


def test_the_swagger_page_that_needs_a_cdn_and_inline_script_is_not_served(client):
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "meeple"


def test_the_pages_have_no_inline_script(client, table):
    for path in ("/", f"/tables/{table}"):
        html = client.get(path).text
        for tag in html.split("<script")[1:]:
            opening = tag.split(">", 1)[0]
            assert 'src="' in opening or 'type="application/json"' in opening, opening
