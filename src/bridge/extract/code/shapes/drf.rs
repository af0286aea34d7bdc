//! Django REST framework serializers: `class ArticleSerializer(serializers.ModelSerializer)` with
//! its declared fields (`title = serializers.CharField(max_length=255)`) and the model fields
//! its `Meta.fields` names; a field that is `read_only` or `required=False` is optional in a
//! request.

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{
    assignment, bases, body_statements, keyword, keyword_is_true, last_segment,
};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Field, Shape};

/// Reads the serializers of one Python file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    if !file.text.contains("Serializer") {
        return;
    }
    index.each(&["class_definition"], |class| {
        let Some(name) = file.field_text(class, "name") else {
            return;
        };
        let class_bases = bases(file, class);
        if !class_bases
            .iter()
            .any(|base| last_segment(base).ends_with("Serializer"))
        {
            return;
        }
        let mut fields: Vec<Field> = Vec::new();
        let mut meta_fields: Vec<String> = Vec::new();
        for statement in body_statements(class) {
            if statement.kind() == "class_definition" && file.field_text(statement, "name") == Some("Meta") {
                for meta in body_statements(statement) {
                    if let Some((key, _, Some(value))) = assignment(file, meta)
                        && key == "fields"
                    {
                        meta_fields.extend(named_children(value).into_iter().filter_map(|f| string(file, f)));
                    }
                }
                continue;
            }
            let Some((field, _, Some(value))) = assignment(file, statement) else {
                continue;
            };
            let Some(kind) = value
                .field("function")
                .map(|f| last_segment(file.text(f)))
                .filter(|kind| kind.ends_with("Field") || kind.ends_with("Serializer") || kind.ends_with("Relation"))
            else {
                continue;
            };
            let optional = matches!(kind, "ReadOnlyField" | "SerializerMethodField" | "HiddenField")
                || keyword_is_true(file, value, "read_only")
                || keyword(file, value, "required").is_some_and(|r| file.text(r) == "False");
            fields.push(Field {
                name: field,
                data_type: Some(kind.to_owned()),
                optional,
            });
        }
        for field in meta_fields {
            if !fields.iter().any(|have| have.name == field) {
                fields.push(Field {
                    name: field,
                    data_type: None,
                    optional: false,
                });
            }
        }
        out.push(PendingShape {
            shape: Shape {
                name: name.to_owned(),
                kind: "drf".into(),
                fields,
                file: file.path.to_owned(),
            },
            bases: Vec::<Base>::new(),
            env_prefix: None,
            validation: Some("drf"),
        });
    });
}
