//! NestJS: `@Controller('users')` classes and their `@Get(':id')`/`@Post()`… methods, the
//! `@Body()` parameter's type as the request shape and the return type (or
//! `@ApiResponse({ type })`) as the response; `app.setGlobalPrefix('api')` from main.ts.

use tree_sitter::Node;

use super::graph::{Item, LocalRoute, Unit};
use super::{RouteScan, nest_guards};
use crate::bridge::extract::syntax::literal::{Constants, string};
use crate::bridge::extract::syntax::script::{
    annotation_text, arguments, class_members, decorator_arguments, decorator_name, decorators, property,
    unwrap_async_type,
};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};

/// Method decorators and the HTTP method each stands for.
const METHOD_DECORATORS: &[(&str, &str)] = &[
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Patch", "PATCH"),
    ("Delete", "DELETE"),
    ("Options", "OPTIONS"),
    ("Head", "HEAD"),
    ("All", "ALL"),
];

/// Decorators whose `type` option names the response shape.
const RESPONSE_DECORATORS: &[&str] = &[
    "ApiResponse",
    "ApiOkResponse",
    "ApiCreatedResponse",
    "ApiAcceptedResponse",
    "ApiDefaultResponse",
];

/// Reads NestJS controllers and the global prefix of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, constants: &Constants, out: &mut RouteScan) {
    index.each(&["class_declaration", "call_expression", "object"], |node| {
        match node.kind() {
            "class_declaration" => {
                controller(file, constants, node, out);
                nest_guards::guard_class(file, node, out);
            }
            "call_expression" => {
                let Some(function) = node.field("function") else {
                    return;
                };
                let callee = file.text(function);
                if callee.ends_with(".setGlobalPrefix")
                    && let Some(prefix) = arguments(node).first().and_then(|arg| constants.resolve(file, *arg))
                {
                    out.global_prefix = Some(prefix);
                } else if callee.ends_with(".forRoutes") {
                    nest_guards::binding(file, node, out);
                }
            }
            "object" => nest_guards::global_guard(file, node, out),
            _ => {}
        }
    });
}

fn controller(file: &ParsedFile<'_>, constants: &Constants, class: Node<'_>, out: &mut RouteScan) {
    let Some(decorator) = decorators(class)
        .into_iter()
        .find(|d| decorator_name(file, *d) == Some("Controller"))
    else {
        return;
    };
    let (Some(name), Some(body)) = (file.field_text(class, "name"), class.field("body")) else {
        return;
    };
    let prefix = decorator_arguments(decorator)
        .first()
        .and_then(|arg| match arg.kind() {
            "object" => property(file, *arg, "path").and_then(|path| constants.render_prefix(file, path)),
            _ => constants.render_prefix(file, *arg),
        })
        .unwrap_or_default();
    let class_guards = nest_guards::use_guards(file, &decorators(class), out);
    let mut items = Vec::new();
    for (member_decorators, member) in class_members(body) {
        if member.kind() != "method_definition" {
            continue;
        }
        let Some(method_name) = file.field_text(member, "name") else {
            continue;
        };
        let response = response_type(file, &member_decorators, member);
        let request = body_type(file, member);
        let guards = nest_guards::use_guards(file, &member_decorators, out);
        for decorator in &member_decorators {
            let Some(method) = decorator_name(file, *decorator)
                .and_then(|name| METHOD_DECORATORS.iter().find(|(have, _)| *have == name))
                .map(|(_, method)| *method)
            else {
                continue;
            };
            for path in decorator_paths(file, constants, *decorator) {
                items.push(Item::Route(LocalRoute {
                    method: method.to_owned(),
                    path,
                    handler: Some(format!("{name}.{method_name}")),
                    request: request.clone(),
                    response: response.clone(),
                    guards: guards.clone(),
                    file: file.path.to_owned(),
                    ..LocalRoute::default()
                }));
            }
        }
    }
    out.declare(Unit {
        key: (file.path.to_owned(), name.to_owned()),
        framework: "nestjs",
        prefix,
        app: true,
        guards: class_guards,
        ..Unit::default()
    });
    out.unit(file.path, name, "nestjs").items = items;
}

/// `@Get()` → `[""]`, `@Get(':id')` → `[":id"]`, `@Get(['a', 'b'])` → both.
fn decorator_paths(file: &ParsedFile<'_>, constants: &Constants, decorator: Node<'_>) -> Vec<String> {
    match decorator_arguments(decorator).first() {
        None => vec![String::new()],
        Some(arg) if arg.kind() == "array" => named_children(*arg)
            .into_iter()
            .filter_map(|path| constants.resolve(file, path))
            .collect(),
        Some(arg) => constants.render_path(file, *arg).into_iter().collect(),
    }
}

/// The type of the `@Body()` parameter.
fn body_type(file: &ParsedFile<'_>, method: Node<'_>) -> Option<String> {
    let parameters = method.field("parameters")?;
    named_children(parameters).into_iter().find_map(|parameter| {
        let is_body = named_children(parameter)
            .into_iter()
            .any(|child| child.kind() == "decorator" && decorator_name(file, child) == Some("Body"));
        let annotation = parameter.field("type")?;
        is_body.then(|| annotation_text(file, annotation).to_owned())
    })
}

/// `@ApiOkResponse({ type: X })` or the return type without `Promise<…>`.
fn response_type(file: &ParsedFile<'_>, decorators: &[Node<'_>], method: Node<'_>) -> Option<String> {
    for decorator in decorators {
        if decorator_name(file, *decorator).is_some_and(|name| RESPONSE_DECORATORS.contains(&name))
            && let Some(kind) = decorator_arguments(*decorator)
                .first()
                .and_then(|o| property(file, *o, "type"))
        {
            return Some(match kind.kind() {
                "array" => format!("{}[]", kind.named_child(0).map(|k| file.text(k)).unwrap_or_default()),
                _ => string(file, kind).unwrap_or_else(|| file.text(kind).to_owned()),
            });
        }
    }
    let returns = method.field("return_type")?;
    let text = unwrap_async_type(annotation_text(file, returns));
    (!matches!(text, "void" | "any" | "unknown" | "")).then(|| text.to_owned())
}
