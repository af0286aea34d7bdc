; framework: laravel
; language: php
; needles: Schema::
; paths: database/migrations
; Laravel migrations: `Schema::create('users', function (Blueprint $table) { … })`, the
; `$table->…()` columns and keys, `Schema::table` additions.

((scoped_call_expression
  scope: (name) @_schema
  name: (name) @_create
  arguments: (arguments
    .
    (argument [(string) (encapsed_string)] @table.name)
    .
    (argument [(anonymous_function) (arrow_function)] @table.scope)))
  (#eq? @_schema "Schema")
  (#eq? @_create "create")
  (#set! origin "create"))

((scoped_call_expression
  scope: (name) @_schema
  name: (name) @_table
  arguments: (arguments
    .
    (argument [(string) (encapsed_string)] @table.name)
    .
    (argument [(anonymous_function) (arrow_function)] @table.scope)))
  (#eq? @_schema "Schema")
  (#eq? @_table "table")
  (#set! origin "alter"))

; $table->string('email')->unique()
((member_call_expression
  object: (variable_name)
  name: (name) @column.type
  arguments: (arguments . (argument [(string) (encapsed_string)] @column.name)))
  (#any-of? @column.type
    "string" "char" "text" "tinyText" "mediumText" "longText" "integer" "tinyInteger"
    "smallInteger" "mediumInteger" "bigInteger" "unsignedInteger" "unsignedTinyInteger"
    "unsignedSmallInteger" "unsignedMediumInteger" "unsignedBigInteger" "float" "double"
    "decimal" "unsignedDecimal" "boolean" "date" "dateTime" "dateTimeTz" "time" "timeTz"
    "timestamp" "timestampTz" "year" "json" "jsonb" "uuid" "ulid" "binary" "enum" "set"
    "ipAddress" "macAddress" "foreignId" "foreignUuid" "foreignUlid" "geometry" "point"))

; $table->increments('id'), $table->bigIncrements('id'), $table->id('key')
((member_call_expression
  object: (variable_name)
  name: (name) @column.type
  arguments: (arguments . (argument [(string) (encapsed_string)] @column.name)))
  (#any-of? @column.type "increments" "bigIncrements" "smallIncrements" "mediumIncrements" "tinyIncrements" "id")
  (#set! primary "true"))

; $table->id()
((member_call_expression
  object: (variable_name)
  name: (name) @column.embedded
  arguments: (arguments) @_args)
  (#eq? @column.embedded "id")
  (#eq? @_args "()")
  (#set! columns "id")
  (#set! primary "id"))

((member_call_expression
  object: (variable_name)
  name: (name) @column.embedded)
  (#any-of? @column.embedded "timestamps" "timestampsTz" "nullableTimestamps")
  (#set! columns "created_at updated_at"))

((member_call_expression
  object: (variable_name)
  name: (name) @column.embedded)
  (#any-of? @column.embedded "softDeletes" "softDeletesTz")
  (#set! columns "deleted_at"))

((member_call_expression
  object: (variable_name)
  name: (name) @column.embedded)
  (#eq? @column.embedded "rememberToken")
  (#set! columns "remember_token"))

; $table->morphs('taggable') → taggable_id, taggable_type
((member_call_expression
  object: (variable_name)
  name: (name) @_morphs
  arguments: (arguments . (argument [(string) (encapsed_string)] @column.embedded)))
  (#any-of? @_morphs "morphs" "nullableMorphs" "uuidMorphs" "ulidMorphs")
  (#set! columns "{}_id {}_type"))

; $table->foreignIdFor(User::class) → user_id
((member_call_expression
  object: (variable_name)
  name: (name) @_for
  arguments: (arguments . (argument (_) @column.embedded)))
  (#eq? @_for "foreignIdFor")
  (#set! columns "{}_id"))

; $table->foreignId('user_id')->constrained() → users; ->constrained('authors')
((member_call_expression
  object: (member_call_expression
    name: (name) @_foreign
    arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column)))
  name: (name) @_constrained
  arguments: (arguments) @_args)
  (#any-of? @_foreign "foreignId" "foreignUuid" "foreignUlid")
  (#eq? @_constrained "constrained")
  (#eq? @_args "()")
  (#set! fk-table "by-column"))

((member_call_expression
  object: (member_call_expression
    name: (name) @_foreign
    arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column)))
  name: (name) @_constrained
  arguments: (arguments . (argument [(string) (encapsed_string)] @fk.table)))
  (#any-of? @_foreign "foreignId" "foreignUuid" "foreignUlid")
  (#eq? @_constrained "constrained"))

; $table->foreignId('editor_id')->nullable()->constrained('users'): a modifier between
((member_call_expression
  object: (member_call_expression
    object: (member_call_expression
      name: (name) @_foreign
      arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column))))
  name: (name) @_constrained
  arguments: (arguments) @_args)
  (#any-of? @_foreign "foreignId" "foreignUuid" "foreignUlid")
  (#eq? @_constrained "constrained")
  (#eq? @_args "()")
  (#set! fk-table "by-column"))

((member_call_expression
  object: (member_call_expression
    object: (member_call_expression
      name: (name) @_foreign
      arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column))))
  name: (name) @_constrained
  arguments: (arguments . (argument [(string) (encapsed_string)] @fk.table)))
  (#any-of? @_foreign "foreignId" "foreignUuid" "foreignUlid")
  (#eq? @_constrained "constrained"))

; $table->foreignIdFor(User::class)->constrained()
((member_call_expression
  object: (member_call_expression
    name: (name) @_foreign
    arguments: (arguments . (argument (_) @fk.column)))
  name: (name) @_constrained)
  (#eq? @_foreign "foreignIdFor")
  (#eq? @_constrained "constrained")
  (#set! fk-column "{}_id")
  (#set! fk-table "by-column"))

; $table->foreign('user_id')->references('id')->on('users')
((member_call_expression
  object: (member_call_expression
    object: (member_call_expression
      name: (name) @_foreign
      arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column)))
    name: (name) @_references)
  name: (name) @_on
  arguments: (arguments . (argument [(string) (encapsed_string)] @fk.table)))
  (#eq? @_foreign "foreign")
  (#eq? @_references "references")
  (#eq? @_on "on"))

; what `down()` does undoes the migration: no table is read from it
((method_declaration name: (name) @_down) @table.skip
  (#eq? @_down "down"))
