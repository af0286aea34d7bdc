//! WTForms forms: `class LoginForm(FlaskForm)` with `username = StringField(…, validators=[DataRequired()])`
//! fields: the shape a Flask view validates a posted form against.

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::python::{bases, class_calls, keyword, last_segment};
use crate::bridge::extract::syntax::{NodeIndex, ParsedFile};
use crate::bridge::facts::{Field, Shape};

/// Base classes of a form.
const FORM_BASES: &[&str] = &["FlaskForm", "Form", "BaseForm"];

/// Validators that make a field required.
const REQUIRED: &[&str] = &["DataRequired", "InputRequired", "Required"];

/// Reads the WTForms forms of one Python file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    if !(file.text.contains("wtforms") || file.text.contains("flask_wtf")) {
        return;
    }
    index.each(&["class_definition"], |class| {
        let Some(name) = file.field_text(class, "name") else {
            return;
        };
        if !bases(file, class)
            .iter()
            .any(|base| FORM_BASES.contains(&last_segment(base)))
        {
            return;
        }
        let mut fields = Vec::new();
        for (field, callee, value) in class_calls(file, class) {
            let kind = last_segment(callee);
            if !kind.ends_with("Field") || kind == "SubmitField" {
                continue;
            }
            let required = keyword(file, value, "validators")
                .map(|list| file.text(list))
                .is_some_and(|list| REQUIRED.iter().any(|r| list.contains(r)));
            fields.push(Field {
                name: field,
                data_type: Some(kind.to_owned()),
                optional: !required,
            });
        }
        out.push(PendingShape {
            shape: Shape {
                name: name.to_owned(),
                kind: "wtforms".into(),
                fields,
                file: file.path.to_owned(),
            },
            bases: Vec::<Base>::new(),
            env_prefix: None,
            validation: Some("wtforms"),
        });
    });
}
