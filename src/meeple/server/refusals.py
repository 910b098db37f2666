"""One shape for every error the HTTP API answers, `{"type": "error", "code", "message"}`
(`meeple.server.wire.error_message`): a table's refusal, a request that fails validation, and
the errors Starlette answers itself (no such path, a method not allowed, a body too large).
A client program reads one shape, and no answer echoes the input (FastAPI's default 422 does,
and fails with a 500 when the input held NaN)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from meeple.server.inbound import describe
from meeple.server.refused import Refused
from meeple.server.wire import error_message

#: The code of an error Starlette answers, by HTTP status (else `http_<status>`).
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def install(app: FastAPI) -> None:
    """Answer every error of `app` in the one shape."""

    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> JSONResponse:
        return JSONResponse(error_message(error.code, str(error)), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_message("bad_request", describe(error.errors())), status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        return JSONResponse(error_message(code, str(error.detail)), status_code=error.status_code,
                            headers=error.headers)
