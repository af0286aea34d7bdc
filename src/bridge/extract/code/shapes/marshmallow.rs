//! marshmallow schemas, the request bodies webargs' `@use_kwargs(user_schema)` reads in Flask
//! views: `class UserSchema(Schema)` with `email = fields.Email(required=True)` fields.

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::python::{bases, class_calls, keyword, last_segment};
use crate::bridge::extract::syntax::{NodeIndex, ParsedFile};
use crate::bridge::facts::{Field, Shape};

/// Reads the marshmallow schemas of one Python file into `out`; a schema inheriting another of
/// the run takes its fields when linking.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    if !file.text.contains("marshmallow") {
        return;
    }
    index.each(&["class_definition"], |class| {
        let Some(name) = file.field_text(class, "name") else {
            return;
        };
        let class_bases = bases(file, class);
        if !class_bases.iter().any(|base| last_segment(base).ends_with("Schema")) {
            return;
        }
        let mut fields = Vec::new();
        for (field, callee, value) in class_calls(file, class) {
            let Some(kind) = callee.strip_prefix("fields.") else {
                continue;
            };
            let required = keyword(file, value, "required").is_some_and(|r| file.text(r) == "True");
            let dump_only = keyword(file, value, "dump_only").is_some_and(|r| file.text(r) == "True");
            fields.push(Field {
                name: field,
                data_type: Some(kind.to_owned()),
                optional: !required || dump_only,
            });
        }
        out.push(PendingShape {
            shape: Shape {
                name: name.to_owned(),
                kind: "marshmallow".into(),
                fields,
                file: file.path.to_owned(),
            },
            bases: class_bases
                .iter()
                .filter(|base| !matches!(last_segment(base), "Schema"))
                .map(|base| Base::all(last_segment(base)))
                .collect(),
            env_prefix: None,
            validation: Some("marshmallow"),
        });
    });
}
