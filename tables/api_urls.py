"""REST API routes of the tables app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
