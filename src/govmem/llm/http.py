"""POST JSON to a backend with timeouts and retries; the one place httpx is used.

httpx is imported when a backend is built, not when govmem is imported, so the
default path needs no LLM dependencies.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from govmem.errors import LLMError
from govmem.llm.retry import RetryPolicy, is_retryable, retry_after
from govmem.llm.usage import Usage

if TYPE_CHECKING:
    import httpx


def require_httpx() -> Any:
    """The httpx module, or an LLMError that says how to install it."""
    try:
        import httpx
    except ImportError as exc:
        raise LLMError("the LLM backends need httpx: pip install 'govmem[llm]'") from exc
    return httpx


def api_message(response: httpx.Response) -> str:
    """The error message an API put in its body (OpenAI, Anthropic, Ollama shapes), else the text."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str) and error:
            return error
        if body.get("message"):
            return str(body["message"])
    text = response.text.strip()
    return text[:500] if text else response.reason_phrase or "no message"


class JSONPoster:
    """Sends one JSON request, retrying what can succeed later, and returns the JSON reply."""

    def __init__(
        self,
        base_url: str,
        *,
        label: str,
        timeout: float,
        retry: RetryPolicy,
        usage: Usage,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ):
        httpx = require_httpx()
        self.base_url = base_url.rstrip("/")
        self.label = label
        self.timeout = timeout
        self.retry = retry
        self.usage = usage
        self.sleep = sleep
        self.rng = rng or random.Random()
        self._httpx = httpx
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), transport=transport)

    def close(self) -> None:
        self._client.close()

    def post(self, path: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        """The reply's JSON object; LLMError naming the status and the API's message otherwise."""
        httpx = self._httpx
        url = f"{self.base_url}{path}"
        for attempt in range(self.retry.max_retries + 1):
            last = attempt == self.retry.max_retries
            self.usage.add_request(retry=attempt > 0)
            wait_hint: float | None = None
            try:
                response = self._client.post(url, json=body, headers=dict(headers))
            except httpx.TimeoutException as exc:
                if last:
                    raise LLMError(
                        f"{self.label}: no reply from {url} within {self.timeout:g} s "
                        f"({attempt + 1} attempts)"
                    ) from exc
            except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
                if last:
                    raise LLMError(
                        f"{self.label}: cannot reach {url}: {exc} ({attempt + 1} attempts)"
                    ) from exc
            except httpx.HTTPError as exc:  # a bad URL or protocol: trying again cannot help
                raise LLMError(f"{self.label}: cannot send to {url}: {exc}") from exc
            else:
                if response.is_success:
                    return self._json(response, url)
                if not is_retryable(response.status_code) or last:
                    tries = f" ({attempt + 1} attempts)" if attempt else ""
                    status = response.status_code
                    raise LLMError(
                        f"{self.label}: HTTP {status} from {url}: {api_message(response)}{tries}",
                        status=response.status_code,
                    )
                wait_hint = retry_after(response.headers)
            self.sleep(self.retry.delay(attempt, wait_hint, self.rng))
        raise AssertionError("unreachable")  # pragma: no cover

    def _json(self, response: httpx.Response, url: str) -> dict[str, Any]:
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise LLMError(
                f"{self.label}: HTTP {response.status_code} from {url} is not a JSON object: "
                f"{response.text[:200]!r}",
                status=response.status_code,
            )
        return body
