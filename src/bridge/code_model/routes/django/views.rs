//! Django and DRF views as linking expands them into routes: class-based views with their
//! bases, handler and action methods, permission classes, serializer, lookup; function
//! views with their allowed methods. The rules read them (`bridge::rules::django`).

/// What one module says of Django: views, settings.
#[derive(Debug, Clone, Default)]
pub struct DjangoScan {
    pub views: Vec<View>,
    /// `REST_FRAMEWORK['DEFAULT_PERMISSION_CLASSES']`.
    pub default_permissions: Vec<String>,
    /// Module-level views made of classes: `user_detail_view = UserDetailView.as_view()`, as
    /// (name, class as written).
    pub aliases: Vec<(String, String)>,
}

/// A class-based or function view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct View {
    pub name: String,
    pub function: bool,
    pub bases: Vec<String>,
    /// Handler and action methods the class defines (`get`, `create`, …).
    pub methods: Vec<String>,
    pub actions: Vec<Action>,
    /// `permission_classes`, as written; `None` when the view does not set it.
    pub permissions: Option<Vec<String>>,
    pub serializer: Option<String>,
    /// Handler methods that read the body with a serializer: (method, serializer).
    pub bodies: Vec<(String, String)>,
    pub lookup: Option<String>,
    /// `http_method_names`, `@api_view([...])`, `@require_http_methods([...])`, upper case.
    pub allowed: Option<Vec<String>>,
    /// Auth decorators and mixins (`login_required`, `LoginRequiredMixin`).
    pub guards: Vec<String>,
    /// No view by its own bases (`class BoardApi(BaseApi)`, `class ApiAuthMixin:`): one
    /// through a base the run defines (`BaseApi(APIView)`, maybe in another module) or for
    /// the views that extend it, which lend its handlers and permission classes.
    pub part: bool,
}

/// `@action(detail=True, methods=['post'], url_path='favorite')` on a viewset method.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Action {
    pub name: String,
    pub detail: bool,
    pub methods: Vec<String>,
    pub url_path: String,
}
