; framework: laravel
; language: php
; needles: Schema::
; paths: database/migrations
; Laravel migrations: `Schema::create('users', function (Blueprint $table) { … })`, the
; `$table->…()` columns and keys, `Schema::table` additions.

; Schema::create('users', function (Blueprint $table) { … }), Schema::table(…)
((scoped_call_expression
  scope: (name) @_schema
  name: [(name) @_create (name) @_table]
  arguments: (arguments
    .
    (argument [(string) (encapsed_string)] @table.name)
    .
    (argument [(anonymous_function) (arrow_function)] @table.scope)))
  (#eq? @_schema "Schema")
  (#eq? @_create "create")
  (#eq? @_table "table")
  (#set! @_create origin "create")
  (#set! @_table origin "alter"))

; $table->string('email')->unique(); $table->increments('id'), $table->bigIncrements('id'),
; $table->id('key') (a primary key)
((member_call_expression
  object: (variable_name)
  name: [(name) @column.type @_typed (name) @column.type @_increments]
  arguments: (arguments . (argument [(string) (encapsed_string)] @column.name)))
  (#any-of? @_typed
    "string" "char" "text" "tinyText" "mediumText" "longText" "integer" "tinyInteger"
    "smallInteger" "mediumInteger" "bigInteger" "unsignedInteger" "unsignedTinyInteger"
    "unsignedSmallInteger" "unsignedMediumInteger" "unsignedBigInteger" "float" "double"
    "decimal" "unsignedDecimal" "boolean" "date" "dateTime" "dateTimeTz" "time" "timeTz"
    "timestamp" "timestampTz" "year" "json" "jsonb" "uuid" "ulid" "binary" "enum" "set"
    "ipAddress" "macAddress" "foreignId" "foreignUuid" "foreignUlid" "geometry" "point")
  (#any-of? @_increments "increments" "bigIncrements" "smallIncrements" "mediumIncrements" "tinyIncrements" "id")
  (#set! @_increments primary "true"))

; $table->id()
((member_call_expression
  object: (variable_name)
  name: (name) @column.embedded
  arguments: (arguments) @_args)
  (#eq? @column.embedded "id")
  (#eq? @_args "()")
  (#set! columns "id")
  (#set! primary "id"))

; $table->timestamps(), ->softDeletes(), ->rememberToken()
((member_call_expression
  object: (variable_name)
  name: [
    (name) @column.embedded @_timestamps
    (name) @column.embedded @_soft_deletes
    (name) @column.embedded @_remember_token])
  (#any-of? @_timestamps "timestamps" "timestampsTz" "nullableTimestamps")
  (#any-of? @_soft_deletes "softDeletes" "softDeletesTz")
  (#eq? @_remember_token "rememberToken")
  (#set! @_timestamps columns "created_at updated_at")
  (#set! @_soft_deletes columns "deleted_at")
  (#set! @_remember_token columns "remember_token"))

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

; $table->foreignId('user_id')->constrained() → users; ->constrained('authors'); also with a
; modifier between: $table->foreignId('editor_id')->nullable()->constrained('users')
((member_call_expression
  object: [
    (member_call_expression
      name: (name) @_foreign
      arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column)))
    (member_call_expression
      object: (member_call_expression
        name: (name) @_foreign
        arguments: (arguments . (argument [(string) (encapsed_string)] @fk.column))))]
  name: (name) @_constrained
  arguments: [(arguments) @_args (arguments . (argument [(string) (encapsed_string)] @fk.table))])
  (#any-of? @_foreign "foreignId" "foreignUuid" "foreignUlid")
  (#eq? @_constrained "constrained")
  (#eq? @_args "()")
  (#set! @_args fk-table "by-column"))

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
