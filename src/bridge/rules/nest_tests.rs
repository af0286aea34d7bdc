//! The NestJS rules (`families/nest`, `nest.rs`) on the code extractor's parse: controllers,
//! routes, shapes, guards of every kind, the global prefix; and on input built to hurt them.

use crate::bridge::facts::Facts;

use crate::bridge::extract::code::fixture::extract_texts as extract;

fn line(facts: &Facts, method: &str, path: &str) -> String {
    let endpoint = facts
        .endpoints
        .iter()
        .find(|e| e.method == method && e.path == path)
        .unwrap_or_else(|| panic!("no {method} {path} in {:#?}", facts.endpoints));
    format!(
        "{} {:?} {:?} {}",
        endpoint.handler.as_deref().unwrap_or("-"),
        endpoint.request,
        endpoint.response,
        endpoint.guards.join(",")
    )
}

const APP: &[(&str, &str)] = &[
    (
        "src/main.ts",
        r#"import { NestFactory } from '@nestjs/core';
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix(`v${1}`);
  app.setGlobalPrefix('v1');
}
"#,
    ),
    (
        "src/things.controller.ts",
        r#"import { Body, Controller, Delete, Get, Post, UseGuards } from '@nestjs/common';
const BASE = 'base';
@Controller({ path: 'things', host: 'x' })
@UseGuards(new RolesGuard(), ThrottlerGuard)
export class ThingsController {
  constructor(private readonly things: ThingsService) {}

  @Get(['a', `${BASE}/b`])
  @ApiOkResponse({ type: [ThingDto] })
  list() {}

  @Post()
  @UseGuards(AuthGuard('jwt'))
  create(@Param('id') id: string, @Body() dto: CreateThingDto): Promise<ThingDto> {
    return this.things.create(dto);
  }

  @Delete(':id')
  remove(): Observable<void> {}

  @Patch(BASE + '/:id')
  @ApiResponse({ status: 200, type: 'ThingDto' })
  update() {}
}

@Controller()
export class RootController {
  @All('*')
  any() {}
  helper() {
    class Inner { @Get('inner') x() {} }
  }
}

export class NotAController {
  @Get('nope')
  nope() {}
}
"#,
    ),
    (
        "src/app.module.ts",
        r#"@Module({ providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }, { provide: APP_GUARD, useClass: ThrottlerGuard }] })
export class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(AuthMiddleware).exclude('x').forRoutes(ThingsController);
    consumer.apply(LoggerMiddleware).forRoutes('*');
    consumer.apply(SessionAuthMiddleware).forRoutes({ path: 'any', method: RequestMethod.ALL }, { path: 'things/*', method: RequestMethod.DELETE });
  }
}
"#,
    ),
    (
        "src/auth.ts",
        r#"export class AuthMiddleware implements NestMiddleware { use() {} }
export class SessionAuthMiddleware implements NestMiddleware { use() {} }
export class LoggerMiddleware implements NestMiddleware { use() {} }
export class JwtAuthGuard extends AuthGuard('jwt') {}
export class RolesGuard implements OnModuleInit, CanActivate {}
export class JwtStrategy extends PassportStrategy(Strategy) {}
"#,
    ),
];

#[test]
fn controllers_routes_shapes_and_every_kind_of_guard() {
    let facts = extract(APP);
    let lines = crate::bridge::extract::code::fixture::endpoint_lines(&facts);
    // A class without `@Controller` maps nothing, nor does a class declared inside a method.
    assert_eq!(
        lines,
        [
            "ALL /v1/*",
            "DELETE /v1/things/:id",
            "GET /v1/things/a",
            "GET /v1/things/base/b",
            "PATCH /v1/things/base/:id",
            "POST /v1/things",
        ]
    );
    assert_eq!(
        line(&facts, "GET", "/v1/things/a"),
        "ThingsController.list None Some(\"ThingDto[]\") JwtAuthGuard,AuthMiddleware,RolesGuard"
    );
    assert_eq!(
        line(&facts, "POST", "/v1/things"),
        "ThingsController.create Some(\"CreateThingDto\") Some(\"ThingDto\") JwtAuthGuard,AuthMiddleware,RolesGuard,AuthGuard('jwt')"
    );
    assert_eq!(
        line(&facts, "DELETE", "/v1/things/:id"),
        "ThingsController.remove None None JwtAuthGuard,AuthMiddleware,SessionAuthMiddleware,RolesGuard"
    );
    assert_eq!(
        line(&facts, "PATCH", "/v1/things/base/:id"),
        "ThingsController.update None Some(\"ThingDto\") JwtAuthGuard,AuthMiddleware,RolesGuard"
    );
    assert_eq!(
        line(&facts, "ALL", "/v1/*"),
        "RootController.any None None JwtAuthGuard"
    );
    let mut guards: Vec<String> = facts
        .guards
        .iter()
        .map(|g| format!("{} {} {} {}", g.name, g.kind, g.endpoints, g.file))
        .collect();
    guards.sort();
    // A logger and a rate limiter are no auth guards.
    assert_eq!(
        guards,
        [
            "AuthGuard('jwt') guard 1 src/things.controller.ts",
            "AuthMiddleware middleware 5 src/auth.ts",
            "JwtAuthGuard guard 6 src/auth.ts",
            "JwtStrategy strategy 0 src/auth.ts",
            "RolesGuard guard 5 src/auth.ts",
            "SessionAuthMiddleware middleware 1 src/auth.ts",
        ]
    );
}

#[test]
fn a_controller_of_thousands_of_routes_and_classes_nested_deep_are_read() {
    let mut routes = String::from("@Controller('many')\nexport class ManyController {\n");
    for i in 0..3_000 {
        routes.push_str(&format!(
            "  @Get('r{i}')\n  @UseGuards(JwtAuthGuard)\n  r{i}(@Body() dto: Dto{i}) {{}}\n"
        ));
    }
    routes.push_str("}\n");
    let depth = 500;
    let nested = format!(
        "@Controller('deep')\nexport class Deep {{\n  @Get('x')\n  x() {{ {} }}\n}}\n",
        "class A { m() { ".repeat(depth) + &"} } ".repeat(depth)
    );
    let files = [
        ("src/many.controller.ts", routes.as_str()),
        ("src/deep.controller.ts", nested.as_str()),
    ];
    let facts = extract(&files);
    let many = facts.endpoints.iter().filter(|e| e.path.starts_with("/many/")).count();
    assert_eq!(many, 3_000, "{:?}", facts.unparsed);
    assert_eq!(
        line(&facts, "GET", "/many/r2999"),
        "ManyController.r2999 Some(\"Dto2999\") None JwtAuthGuard"
    );
    assert!(
        facts.endpoints.iter().any(|e| e.path == "/deep/x"),
        "{:?}",
        facts.unparsed
    );
}
