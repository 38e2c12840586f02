# DOT's endpoints under /o/ as its documentation mounts them, its RFC 8414 metadata also at the
# origin's root (/.well-known/oauth-authorization-server/o, as that documentation asks of a
# prefixed deployment), Django's own login view with the admin's login template at LOGIN_URL,
# the admin, and the admin's static files.
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.static import serve
from oauth2_provider import urls as oauth2_urls

urlpatterns = [
    path("o/", include(oauth2_urls, namespace="oauth2_provider")),
    path("", include(oauth2_urls.metadata_urlpatterns)),
    path("accounts/login/", auth_views.LoginView.as_view(template_name="admin/login.html"), name="login"),
    path("admin/", admin.site.urls),
    re_path(r"^static/(?P<path>.*)$", serve, {"document_root": settings.STATIC_ROOT}),
]
