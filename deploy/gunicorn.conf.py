"""gunicorn settings for the web process (gunicorn -c deploy/gunicorn.conf.py casino.wsgi)."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# Threads share a worker's memory; each thread keeps its own database connection (or borrows from the pool).
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then so a slow leak never grows unbounded; the jitter keeps them from restarting together.
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
errorlog = "-"
# Only the local nginx may say the request came over https (X-Forwarded-Proto) or from where (X-Forwarded-For).
forwarded_allow_ips = "127.0.0.1"
