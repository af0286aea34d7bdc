//! The Django URLconf rules (`families/django/urls.scm`, `django_urls.rs`) on the code
//! extractor's parse: patterns, includes of every form, views and routers; and on input built
//! to hurt them.

use crate::bridge::facts::Facts;

use crate::bridge::extract::code::fixture::extract_texts as extract;

fn lines(facts: &Facts) -> Vec<String> {
    let mut lines: Vec<String> = facts
        .endpoints
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {}",
                e.method,
                e.path,
                e.handler.as_deref().unwrap_or("-"),
                e.guards.join(",")
            )
        })
        .collect();
    lines.sort();
    lines
}

const VIEWS: &str = r#"from django.views import View
from rest_framework import viewsets
from rest_framework.views import APIView
from rest_framework.permissions import IsAuthenticated

class ItemView(APIView):
    permission_classes = [IsAuthenticated]
    def get(self, request): ...
    def post(self, request): ...

class ThingViewSet(viewsets.ModelViewSet):
    pass

def ping(request): ...
def profile(request): ...
"#;

const URLS: &str = r#"from django.urls import include, path, re_path
from django.contrib.auth.decorators import login_required
from rest_framework.routers import DefaultRouter, SimpleRouter
from django.conf import settings
from . import views

router = DefaultRouter(trailing_slash=False) if settings.DEBUG else SimpleRouter()
router.register(r'^things', views.ThingViewSet, basename='thing')

extra = [
    path('ping/', views.ping),
]

urlpatterns = [
    path('items/', views.ItemView.as_view()),
    path('things/<int:pk>/', views.ThingViewSet.as_view({'get': 'retrieve', 'delete': 'destroy'})),
    path('me/', login_required(views.profile), name='me'),
    path('named/', view=views.ping, name='named'),
    re_path(r'^v1/', include([
        path('inner/', views.ping),
        path('deeper/', include(([path('deepest/', views.ping)], 'ns'))),
    ])),
    path('extra/', include(extra)),
    path('api/', include(router.urls)),
]
urlpatterns += router.urls
urlpatterns += [path('late/', views.ping)]
"#;

#[test]
fn patterns_includes_in_place_and_by_module_views_and_routers() {
    let facts = extract(&[("app/views.py", VIEWS), ("app/urls.py", URLS)]);
    assert_eq!(
        lines(&facts),
        [
            "ALL /extra/ping/ views.ping ",
            "ALL /late/ views.ping ",
            "ALL /me/ views.profile login_required",
            "ALL /named/ views.ping ",
            "ALL /v1/deeper/deepest/ views.ping ",
            "ALL /v1/inner/ views.ping ",
            "DELETE /api/things/<pk> ThingViewSet.destroy ",
            "DELETE /things/<int:pk>/ ThingViewSet.delete ",
            "DELETE /things/<pk> ThingViewSet.destroy ",
            "GET / api-root ",
            "GET /api/ api-root ",
            "GET /api/things ThingViewSet.list ",
            "GET /api/things/<pk> ThingViewSet.retrieve ",
            "GET /items/ ItemView.get IsAuthenticated",
            "GET /things ThingViewSet.list ",
            "GET /things/<int:pk>/ ThingViewSet.get ",
            "GET /things/<pk> ThingViewSet.retrieve ",
            "PATCH /api/things/<pk> ThingViewSet.partial_update ",
            "PATCH /things/<pk> ThingViewSet.partial_update ",
            "POST /api/things ThingViewSet.create ",
            "POST /items/ ItemView.post IsAuthenticated",
            "POST /things ThingViewSet.create ",
            "PUT /api/things/<pk> ThingViewSet.update ",
            "PUT /things/<pk> ThingViewSet.update ",
        ]
    );
}

/// A list of patterns passed through a call (`format_suffix_patterns([...])`) holds patterns
/// too; a pattern inside another pattern's view that is no include is no pattern of the list.
#[test]
fn patterns_in_a_wrapped_list_count_and_those_inside_a_view_do_not() {
    let urls = "from django.urls import path\nfrom rest_framework.urlpatterns import format_suffix_patterns\n\
        from . import views\n\
        urlpatterns = format_suffix_patterns([path('a/', views.a), path('b/', views.b(path('c/', views.c)))])\n";
    let facts = extract(&[("app/urls.py", urls)]);
    assert_eq!(lines(&facts), ["ALL /a/ views.a "]);
}

#[test]
fn thousands_of_patterns_and_includes_nested_deep_are_read() {
    let mut urls = String::from("from django.urls import include, path\nurlpatterns = [\n");
    for i in 0..3_000 {
        urls.push_str(&format!("    path('p{i}/', include([path('q/', views.v{i})])),\n"));
    }
    urls.push_str("]\n");
    let depth = 300;
    let deep = format!(
        "from django.urls import include, path\nurlpatterns = [{}path('x/', views.x){}]\n",
        "path('a/', include([".repeat(depth),
        "]))".repeat(depth)
    );
    let facts = extract(&[("app/urls.py", urls.as_str()), ("deep/urls.py", deep.as_str())]);
    let many = facts.endpoints.iter().filter(|e| e.path.starts_with("/p")).count();
    assert_eq!(many, 3_000, "{:?}", facts.unparsed);
    assert!(facts.endpoints.iter().any(|e| e.path == "/p2999/q/"));
}
