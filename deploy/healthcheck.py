"""Container health check: GET /healthz from inside the web container (exit 0 when it answers 200).

It sends the first ALLOWED_HOSTS name and X-Forwarded-Proto: https, as nginx would, so neither the host check
nor the https redirect turns the probe away.
"""

import os
import sys
import urllib.request

host = (os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0] or "localhost").strip()
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
request = urllib.request.Request(f"http://{bind}/healthz", headers={"Host": host, "X-Forwarded-Proto": "https"})
try:
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 (a fixed local http URL)
        sys.exit(0 if response.status == 200 else 1)
except OSError as exc:
    print(f"healthz: {exc}", file=sys.stderr)
    sys.exit(1)
