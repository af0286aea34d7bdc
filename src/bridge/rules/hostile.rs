//! The rule engine on input built to hurt it: nesting thousands deep in each language's
//! constructs that scope routes, groups and tables, text that is no code under a code file's
//! name, routers registered in a circle. Each run must come back (no stack overflow, no
//! panic, no endless loop) with the well-formed facts of the other files still read.

use super::extract;
use crate::bridge::facts::Facts;
use crate::bridge::source::Source;

const DEPTH: usize = 1_000;

fn run(files: &[(&str, String)]) -> Facts {
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    extract(&sources)
}

/// A well-formed gin file whose route must still be found beside the hostile ones.
fn fine() -> (&'static str, String) {
    (
        "cmd/fine.go",
        "package main\nimport \"github.com/gin-gonic/gin\"\nfunc main() {\n\tr := gin.Default()\n\tr.GET(\"/fine\", h)\n}\n".to_owned(),
    )
}

fn has_fine(facts: &Facts) -> bool {
    facts.endpoints.iter().any(|e| e.path == "/fine")
}

#[test]
fn deep_nesting_in_every_language_ends() {
    let nested = |open: &str, inner: &str, close: &str| format!("{}{inner}{}", open.repeat(DEPTH), close.repeat(DEPTH));
    let files = [
        fine(),
        (
            "routes/chi.go",
            format!(
                "package r\nimport \"github.com/go-chi/chi/v5\"\nfunc f(r chi.Router) {{\n{}\n}}\n",
                nested("r.Route(\"/a\", func(r chi.Router) {\n", "r.Get(\"/x\", h)\n", "})\n")
            ),
        ),
        (
            "config/routes.rb",
            format!(
                "Rails.application.routes.draw do\n{}\nend\n",
                nested("namespace :a do\n", "resources :x\n", "end\n")
            ),
        ),
        (
            "routes/api.php",
            format!(
                "<?php\n{}\n",
                nested(
                    "Route::prefix('a')->group(function () {\n",
                    "Route::get('/x', [X::class, 'y']);\n",
                    "});\n"
                )
            ),
        ),
        (
            "src/main/java/A.java",
            format!(
                "@RestController\n@RequestMapping(\"/a\")\nclass A {{ {} }}\n",
                nested("class B { ", "@GetMapping(\"/x\") void x() {}", " }")
            ),
        ),
        (
            "src/router.ts",
            format!(
                "import {{ createRouter }} from 'vue-router'\nexport default createRouter({{ routes: [{}] }})\n",
                nested("{ path: 'a', children: [", "{ path: 'x', component: X }", "] }")
            ),
        ),
        (
            "src/entity.ts",
            format!(
                "import {{ Entity, Column }} from 'typeorm'\n@Entity()\nexport class A {{\n  @Column({})\n  a: string;\n}}\n",
                nested("{ a: ", "1", " }")
            ),
        ),
    ];
    let facts = run(&files);
    assert!(has_fine(&facts), "{:#?}", facts.endpoints);
}

#[test]
fn a_diesel_table_of_thousands_of_columns_is_read_whole() {
    let columns: String = (0..3000)
        .map(|i| format!("        c{i} -> Nullable<Int4>,\n"))
        .collect();
    let files = [(
        "src/schema.rs",
        format!("diesel::table! {{\n    wide (c0) {{\n{columns}    }}\n}}\n"),
    )];
    let facts = run(&files);
    let wide = &facts.tables[0];
    assert_eq!(wide.columns.len(), 3000);
    assert_eq!(wide.columns[2999].data_type.as_deref(), Some("Int4"));
}

#[test]
fn a_sqlalchemy_model_of_thousands_of_columns_and_mixins_in_a_circle_are_read() {
    let columns: String = (0..3_000)
        .map(|at| format!("    c{at}: Mapped[int] = mapped_column(sa.Integer, index=True)\n"))
        .collect();
    let text = format!(
        "import sqlalchemy as sa\nclass A(B):\n    a = sa.Column(sa.Text)\nclass B(A):\n    b = sa.Column(sa.Text)\nclass Wide(A, Base):\n    __tablename__ = 'wide'\n{columns}"
    );
    let facts = run(&[fine(), ("app/models.py", text)]);
    assert!(has_fine(&facts));
    let wide = facts.tables.iter().find(|t| t.name == "wide").expect("the wide table");
    assert_eq!(wide.columns.len(), 3_002, "{:?}", &wide.columns[..3]);
    assert_eq!(facts.indexes.len(), 3_000);
}

#[test]
fn an_alembic_upgrade_of_thousands_of_operations_and_helpers_in_a_circle_ends() {
    let ops: String = (0..2_000)
        .map(|at| format!("    op.add_column(\"t\", sa.Column(\"c{at}\", sa.Integer()))\n"))
        .collect();
    let text = format!(
        "from alembic import op\nimport sqlalchemy as sa\nrevision = \"r\"\ndef a():\n    b()\n    op.create_table(\"t\", sa.Column(\"id\", sa.Integer(), primary_key=True))\ndef b():\n    a()\ndef upgrade():\n    a()\n{ops}"
    );
    let facts = run(&[fine(), ("migrations/versions/r.py", text)]);
    assert!(has_fine(&facts));
    assert_eq!(facts.schema_changes.len(), 2_001);
}

#[test]
fn routers_registered_in_a_circle_and_a_group_of_itself_end() {
    let files = [
        fine(),
        (
            "api/a.go",
            "package api\nimport \"github.com/gin-gonic/gin\"\nfunc A(r *gin.RouterGroup) {\n\tB(r.Group(\"/b\"))\n\tr.GET(\"/a\", h)\n}\nfunc B(r *gin.RouterGroup) {\n\tA(r.Group(\"/a\"))\n\tr.GET(\"/b\", h)\n}\nfunc main() {\n\tg := gin.Default()\n\tv := v.Group(\"/v\")\n\tv.GET(\"/self\", h)\n\tA(g.Group(\"/x\"))\n}\n"
                .to_owned(),
        ),
    ];
    let facts = run(&files);
    assert!(has_fine(&facts), "{:#?}", facts.endpoints);
    assert!(
        facts.endpoints.iter().any(|e| e.path.ends_with("/self")),
        "{:#?}",
        facts.endpoints
    );
}

#[test]
fn text_that_is_no_code_under_code_names_is_survived() {
    let noise: String = (0..200_000u32)
        .map(|i| char::from_u32(0x20 + (i * 7919) % 0x2fff).unwrap_or('x'))
        .collect();
    let mut files = vec![fine()];
    for path in [
        "a.go",
        "b.rb",
        "c.php",
        "D.java",
        "E.vue",
        "f.svelte",
        "config/application.yml",
    ] {
        files.push((path, format!("gin-gonic/gin Route:: resources @Entity <script>{noise}")));
    }
    files.push(("G.vue", "<script>".repeat(1_000)));
    let facts = run(&files);
    assert!(has_fine(&facts), "{:#?}", facts.endpoints);
}

#[test]
fn groups_chained_deep_keep_every_prefix_and_deeper_than_a_router_is_written_give_no_path() {
    let chain = |depth: usize| {
        let mut text =
            String::from("package main\nimport \"github.com/gin-gonic/gin\"\nfunc main() {\n\tg0 := gin.Default()\n");
        for i in 0..depth {
            text.push_str(&format!("\tg{} := g{i}.Group(\"/p{i}\")\n", i + 1));
        }
        text.push_str(&format!("\tg{depth}.GET(\"/x\", h)\n}}\n"));
        text
    };
    let facts = run(&[("a/main.go", chain(20))]);
    let expected: String = (0..20).map(|i| format!("/p{i}")).collect::<String>() + "/x";
    assert_eq!(
        facts.endpoints.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(),
        [expected.as_str()]
    );
    // A path cut short would be a wrong fact: none is given.
    let facts = run(&[("a/main.go", chain(200))]);
    assert!(facts.endpoints.is_empty(), "{:#?}", facts.endpoints);
}

#[test]
fn a_router_function_mounted_at_hundreds_of_places_is_placed_within_a_bound() {
    let mut text = String::from("package main\nimport \"github.com/gin-gonic/gin\"\nfunc Reg(r *gin.RouterGroup) {\n");
    for i in 0..100 {
        text.push_str(&format!("\tr.GET(\"/x{i}\", h)\n"));
    }
    text.push_str("}\nfunc main() {\n\te := gin.Default()\n");
    for i in 0..300 {
        text.push_str(&format!("\tReg(e.Group(\"/m{i}\"))\n"));
    }
    text.push_str("}\n");
    let facts = run(&[("a/main.go", text)]);
    assert!(facts.endpoints.len() <= 20_300, "{}", facts.endpoints.len());
    assert!(facts.endpoints.len() >= 100, "{}", facts.endpoints.len());
    assert!(
        facts
            .unparsed
            .iter()
            .any(|u| u.contains("routes mounted at more places")),
        "{:?}",
        facts.unparsed
    );
}

#[test]
fn shapes_nested_deep_and_bases_in_a_circle_end() {
    let deep = format!(
        "import {{ z }} from 'zod';\nexport const deep = {}z.string(){};\n",
        "z.object({ a: ".repeat(DEPTH),
        " })".repeat(DEPTH)
    );
    let circle = "from pydantic import BaseModel\nclass A(B):\n    a: int\nclass B(A):\n    b: int\nclass C(BaseModel):\n    c: int\n".to_owned();
    let chain: String = (1..DEPTH).fold("class M0(BaseModel):\n    x: int\n".to_owned(), |text, at| {
        text + &format!("class M{at}(M{}):\n    y{at}: int = 1\n", at - 1)
    });
    let facts = run(&[
        fine(),
        ("src/deep.ts", deep),
        ("app/circle.py", circle),
        ("app/chain.py", format!("from pydantic import BaseModel\n{chain}")),
    ]);
    assert!(has_fine(&facts), "{:#?}", facts.endpoints);
    let deep = facts.shapes.iter().find(|s| s.name == "deep").expect("deep");
    assert_eq!(deep.fields.len(), 1, "only the outer object's field: {:?}", deep.fields);
    assert!(facts.shapes.iter().any(|s| s.name == "C"));
    assert!(!facts.shapes.iter().any(|s| s.name == "A" || s.name == "B"));
}
