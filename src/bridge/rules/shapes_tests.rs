//! Shapes the rules find in the fixture projects (run the way the bridge runs them), their
//! links to endpoints, and the syntax the `shape.*`/`field.*` captures read.

use super::{call_type, names};
use crate::bridge::extract::code::fixture::extract;
use crate::bridge::facts::{Facts, Shape};
use crate::bridge::source::Source;

#[test]
fn call_types_and_listed_names() {
    assert_eq!(call_type("z.string().min(1)"), "string");
    assert_eq!(call_type("z.coerce.date()"), "date");
    assert_eq!(
        call_type("z.enum(['admin', 'member']).default('member')"),
        "'admin' | 'member'"
    );
    assert_eq!(names("['a', \"b\"]"), ["a", "b"]);
    assert_eq!(names("{ a: true, b: true }"), ["a", "b"]);
}

#[test]
fn serde_wire_names_and_optional_fields() {
    let text = "#[derive(Deserialize)]\n#[serde(rename_all = \"camelCase\")]\nstruct NewUser {\n    display_name: String,\n    #[serde(default)]\n    newsletter: bool,\n    #[serde(rename = \"e-mail\")]\n    email: Option<String>,\n    #[serde(skip)]\n    cache: u8,\n}\n";
    let facts = crate::bridge::rules::extract(&[Source { path: "a.rs", text }]);
    let fields: Vec<String> = facts.shapes[0]
        .fields
        .iter()
        .map(|f| format!("{}{}", f.name, if f.optional { "?" } else { "" }))
        .collect();
    assert_eq!(fields, ["displayName", "newsletter?", "e-mail?"]);
}

fn shape<'f>(facts: &'f Facts, name: &str) -> &'f Shape {
    facts
        .shapes
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no shape {name} in {:#?}", facts.shapes))
}

/// `name: type` of each field, `?` after optional ones.
fn fields(shape: &Shape) -> Vec<String> {
    shape
        .fields
        .iter()
        .map(|f| {
            format!(
                "{}{}: {}",
                f.name,
                if f.optional { "?" } else { "" },
                f.data_type.as_deref().unwrap_or("")
            )
        })
        .collect()
}

fn request_of(facts: &Facts, method: &str, path: &str) -> Option<String> {
    let endpoint = facts
        .endpoints
        .iter()
        .find(|e| e.method == method && e.path == path)
        .expect("endpoint");
    endpoint.request.clone()
}

#[test]
fn zod_schemas_give_field_types_and_derived_schemas_inherit() {
    let facts = extract("backend-express");
    let create = shape(&facts, "createUserSchema");
    assert_eq!(
        (create.kind.as_str(), create.file.as_str()),
        ("zod", "src/schemas/user.ts")
    );
    assert_eq!(
        fields(create),
        [
            "email: string",
            "name: string",
            "role?: 'admin' | 'member'",
            "marketingOptIn?: boolean"
        ]
    );
    let update = shape(&facts, "updateUserSchema");
    assert_eq!(
        fields(update),
        [
            "email?: string",
            "name?: string",
            "role?: 'admin' | 'member'",
            "marketingOptIn?: boolean"
        ]
    );
    assert_eq!(
        request_of(&facts, "POST", "/api/v1/users").as_deref(),
        Some("createUserSchema")
    );
    assert_eq!(
        request_of(&facts, "PATCH", "/api/v1/users/:id").as_deref(),
        Some("updateUserSchema")
    );
    assert_eq!(request_of(&facts, "GET", "/api/v1/users"), None);
}

#[test]
fn fastify_body_schemas_link_to_routes() {
    let facts = extract("backend-fastify");
    let booking = shape(&facts, "createBookingSchema");
    assert_eq!(
        fields(booking),
        [
            "roomId: string",
            "checkIn: date",
            "checkOut: date",
            "guests: number",
            "notes?: string"
        ]
    );
    assert_eq!(
        request_of(&facts, "POST", "/v1/bookings").as_deref(),
        Some("createBookingSchema")
    );
}

#[test]
fn dto_classes_read_validators_optionality_and_mapped_types() {
    let facts = extract("backend-nestjs");
    let create = shape(&facts, "CreateUserDto");
    assert_eq!(create.kind, "dto");
    assert_eq!(
        fields(create),
        [
            "email: string",
            "displayName: string",
            "role: 'admin' | 'member'",
            "timezone?: string"
        ]
    );
    assert_eq!(
        fields(shape(&facts, "UpdateUserDto")),
        [
            "email?: string",
            "displayName?: string",
            "role?: 'admin' | 'member'",
            "timezone?: string"
        ]
    );
    assert_eq!(fields(shape(&facts, "LoginDto")), ["email: string", "password: string"]);
    assert!(fields(shape(&facts, "UserResponseDto")).contains(&"createdAt: Date".to_owned()));
    assert!(
        !facts
            .shapes
            .iter()
            .any(|s| s.name == "UsersService" || s.name == "UsersController")
    );
}

#[test]
fn pydantic_models_inherit_fields_and_link_to_fastapi_routes() {
    let facts = extract("backend-fastapi");
    let create = shape(&facts, "UserCreate");
    assert_eq!(create.kind, "pydantic");
    assert_eq!(create.file, "app/schemas/user.py");
    assert_eq!(
        fields(create),
        [
            "email: EmailStr",
            "full_name?: str | None",
            "is_active?: bool",
            "password: str"
        ]
    );
    assert_eq!(
        fields(shape(&facts, "UserOut")),
        [
            "email: EmailStr",
            "full_name?: str | None",
            "is_active?: bool",
            "id: int",
            "created_at: datetime"
        ]
    );
    assert_eq!(
        fields(shape(&facts, "UserUpdate")),
        ["full_name?: Optional[str]", "password?: Optional[str]"]
    );
    assert_eq!(
        fields(shape(&facts, "ItemOut")).last().map(String::as_str),
        Some("id: int")
    );
    assert!(
        !facts.shapes.iter().any(|s| s.name == "Settings"),
        "settings are no request shape"
    );
    let endpoint = |method: &str, path: &str| {
        let e = facts
            .endpoints
            .iter()
            .find(|e| e.method == method && e.path == path)
            .expect("endpoint");
        (e.request.clone(), e.response.clone())
    };
    assert_eq!(
        endpoint("POST", "/api/v1/users/"),
        (Some("UserCreate".into()), Some("UserOut".into()))
    );
    assert_eq!(
        endpoint("PATCH", "/api/v1/users/{user_id}"),
        (Some("UserUpdate".into()), Some("UserOut".into()))
    );
    assert_eq!(
        endpoint("GET", "/api/v1/users/{user_id}"),
        (None, Some("UserOut".into()))
    );
    assert_eq!(
        endpoint("PUT", "/api/v1/items/{item_id}"),
        (Some("ItemCreate".into()), Some("ItemOut".into()))
    );
    assert_eq!(endpoint("DELETE", "/api/v1/users/{user_id}"), (None, None));
}

/// A request struct with validation tags is a validation guard of the application, unless a
/// test declares it (`_test.go`): the test's shape stays, its guard does not.
#[test]
fn a_tests_validated_struct_is_no_guard_of_the_application() {
    let text = "package users\n\nimport \"github.com/gin-gonic/gin\"\n\ntype Login struct {\n\tEmail string `json:\"email\" binding:\"required,email\"`\n}\n";
    let guards = |path: &str| -> Vec<String> {
        crate::bridge::rules::extract(&[Source { path, text }])
            .guards
            .iter()
            .filter(|g| g.kind == "validation")
            .map(|g| g.name.clone())
            .collect()
    };
    assert_eq!(guards("users/validators.go"), ["Login"]);
    assert!(guards("common/unit_test.go").is_empty());
}
