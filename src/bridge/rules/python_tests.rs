//! The FastAPI and Flask rules (`python/routes`, `fastapi/routers`, `flask/blueprints`) as the
//! mount graph reads them: prefixes of routers, includes and blueprints across files, the
//! methods a route call lists, guards from dependencies, decorators and hooks, request shapes.

use crate::bridge::facts::{Endpoint, Facts};

use crate::bridge::extract::code::fixture::extract_texts as extract;

fn lines(facts: &Facts) -> Vec<String> {
    let mut lines: Vec<String> = facts
        .endpoints
        .iter()
        .map(|e| format!("{} {} {:?}", e.method, e.path, e.guards))
        .collect();
    lines.sort();
    lines
}

fn endpoint<'f>(facts: &'f Facts, method: &str, path: &str) -> &'f Endpoint {
    facts
        .endpoints
        .iter()
        .find(|e| e.method == method && e.path == path)
        .unwrap_or_else(|| panic!("{method} {path} in {:#?}", facts.endpoints))
}

fn guard_kind<'f>(facts: &'f Facts, name: &str) -> &'f str {
    facts
        .guards
        .iter()
        .find(|g| g.name == name)
        .map_or("", |g| g.kind.as_str())
}

const DEPS: &str = r#"
from typing import Annotated
from fastapi import Depends
from fastapi.security import APIKeyHeader, OAuth2PasswordBearer

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/token")
partner_key = APIKeyHeader(name="X-Partner-Key")


class MetricsToken(APIKeyHeader):
    pass


def get_current_user(token: str = Depends(oauth2_scheme)):
    return token


CurrentUser = Annotated[dict, Depends(get_current_user)]
"#;

const ROUTES: &str = r#"
from fastapi import APIRouter, Depends, Security
from pydantic import BaseModel

from app.deps import CurrentUser, MetricsToken, partner_key


class ItemIn(BaseModel):
    name: str


router = APIRouter(tags=["items"], prefix="/items")
metrics = APIRouter(dependencies=[Depends(MetricsToken(name="X-Token"))])


@router.api_route("/{id}", methods=["PUT", "PATCH"], response_model=ItemIn)
def replace(id: int, item: ItemIn, user: CurrentUser):
    return item


@router.get("/partners", dependencies=[Depends(verify_admin)])
def partners(key: str = Security(partner_key)):
    return []


@router.get("/maybe")
def maybe(user=Depends(get_current_user_authorizer(required=False))):
    return []


@router.get("/kw")
def kw(user=Depends(dependency=get_current_user)):
    return []


@metrics.get("/metrics")
def scrape():
    return {}
"#;

const MAIN: &str = r#"
from fastapi import FastAPI

from app import routes
from app.routes import metrics

app = FastAPI()
app.include_router(routes.router, prefix="/api")


def add_internal(application: FastAPI) -> None:
    application.include_router(metrics, prefix="/internal")


add_internal(app)
"#;

#[test]
fn fastapi_dependencies_guard_routes_through_aliases_schemes_and_router_options() {
    let facts = extract(&[("app/deps.py", DEPS), ("app/routes.py", ROUTES), ("app/main.py", MAIN)]);
    assert_eq!(
        lines(&facts),
        [
            "GET /api/items/kw [\"get_current_user\"]",
            "GET /api/items/maybe []",
            "GET /api/items/partners [\"verify_admin\", \"partner_key\"]",
            "GET /internal/metrics [\"MetricsToken\"]",
            "PATCH /api/items/{id} [\"get_current_user\"]",
            "PUT /api/items/{id} [\"get_current_user\"]",
        ]
    );
    let put = endpoint(&facts, "PUT", "/api/items/{id}");
    assert_eq!(
        (put.handler.as_deref(), put.request.as_deref(), put.response.as_deref()),
        (Some("replace"), Some("ItemIn"), Some("ItemIn"))
    );
    assert!(facts.endpoints.iter().all(|e| e.framework == "fastapi"));
    assert_eq!(guard_kind(&facts, "partner_key"), "security-scheme");
    assert_eq!(guard_kind(&facts, "MetricsToken"), "security-scheme");
    assert_eq!(guard_kind(&facts, "get_current_user"), "dependency");
    assert_eq!(guard_kind(&facts, "verify_admin"), "dependency");
}

const FLASK_APP: &str = r#"
from flask import Flask

from shop.account import account
from shop.api import api


def create_app():
    app = Flask(__name__)
    app.register_blueprint(account, url_prefix="/me")
    app.register_blueprint(api)
    register_pages(app)
    return app


def register_pages(app):
    @app.route("/hello")
    def hello():
        return "hi"

    app.add_url_rule("/about", "about", about)
    app.add_url_rule("/contact", view_func=contact, methods=["GET", "POST"])
"#;

const ACCOUNT: &str = r#"
from flask import Blueprint, abort
from flask_login import current_user, login_required

account = Blueprint("account", __name__, url_prefix="/account")


@account.before_request
def before():
    if not current_user.is_authenticated:
        abort(401)


@account.route("/orders", methods=("GET", "POST"))
@login_required
def orders():
    form = OrderForm()
    return "orders"
"#;

const API: &str = r#"
from flask import Blueprint
from flask_httpauth import HTTPTokenAuth
from webargs.flaskparser import use_kwargs

api = Blueprint("api", __name__, url_prefix="/api")
token_auth = HTTPTokenAuth()


@token_auth.verify_token
def verify(token):
    return True


@api.post("/stock")
@token_auth.login_required
@use_kwargs(stock_schema)
def stock():
    return {}


def admin_required(f):
    return f
"#;

#[test]
fn flask_blueprints_take_register_prefixes_hooks_decorators_and_forms() {
    let facts = extract(&[
        ("shop/__init__.py", FLASK_APP),
        ("shop/account.py", ACCOUNT),
        ("shop/api.py", API),
    ]);
    assert_eq!(
        lines(&facts),
        [
            "GET /about []",
            "GET /contact []",
            "GET /hello []",
            "GET /me/orders [\"before\", \"login_required\"]",
            "POST /api/stock [\"token_auth.login_required\"]",
            "POST /contact []",
            "POST /me/orders [\"before\", \"login_required\"]",
        ]
    );
    assert!(
        facts.endpoints.iter().all(|e| e.framework == "flask"),
        "{:#?}",
        facts.endpoints
    );
    assert_eq!(endpoint(&facts, "GET", "/about").handler.as_deref(), Some("about"));
    assert_eq!(guard_kind(&facts, "before"), "hook");
    assert_eq!(guard_kind(&facts, "login_required"), "decorator");
    assert_eq!(guard_kind(&facts, "token_auth.login_required"), "decorator");
    // A decorator on a function that is no view guards nothing.
    assert!(!facts.guards.iter().any(|g| g.name == "token_auth.verify_token"));
}

/// Thousands of decorated views in one file, each with options in any order, thousands of
/// methods handing their parameters to functions (each call's function found without looking
/// at the others), and views nested hundreds of functions deep: every route is read once, the
/// deep ones under the router of the function that is handed it.
#[test]
fn thousands_of_views_and_deeply_nested_registrations_are_read() {
    let mut many = String::from("from fastapi import APIRouter\nrouter = APIRouter(tags=['x'], prefix='/many')\n");
    for i in 0..3_000 {
        many.push_str(&format!(
            "@router.api_route('/r{i}', status_code=200, response_model=Out, methods=['GET'])\ndef h{i}(x: int):\n    return x\n"
        ));
    }
    many.push_str("class Big:\n");
    for i in 0..3_000 {
        many.push_str(&format!(
            "    def m{i}(self, x):\n        helper(self)\n        return other(x)\n"
        ));
    }
    let mut deep = String::from("from flask import Flask\napp = Flask(__name__)\ndef register(app):\n");
    let depth = 200;
    for level in 1..=depth {
        let indent = "    ".repeat(level);
        deep.push_str(&format!("{indent}def level{level}():\n"));
    }
    let indent = "    ".repeat(depth + 1);
    deep.push_str(&format!(
        "{indent}@app.route('/deep', methods=['POST'])\n{indent}def deep():\n{indent}    return 1\n"
    ));
    deep.push_str("register(app)\n");
    let facts = extract(&[("app/many.py", &many), ("app/deep.py", &deep)]);
    let many = facts.endpoints.iter().filter(|e| e.path.starts_with("/many/r")).count();
    assert_eq!(many, 3_000, "{:?}", facts.unparsed);
    assert_eq!(endpoint(&facts, "GET", "/many/r2999").response.as_deref(), Some("Out"));
    assert_eq!(endpoint(&facts, "POST", "/deep").file, "app/deep.py");
}
