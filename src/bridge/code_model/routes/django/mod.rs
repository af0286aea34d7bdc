//! Django and Django REST framework views as linking expands them into the routes the
//! URLconfs name (the rules read URLconfs and views: `rules/django_urls.rs`,
//! `rules/django.rs`).

pub mod expand;
pub mod views;
