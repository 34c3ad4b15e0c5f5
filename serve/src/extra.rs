//! Pages a tool adds to the server beside the games' (Toppo's game against
//! bots): each answers every route under `/ui/<name>/` itself. The server
//! names no tool; the binary registers them.

use crate::routes::Reply;

/// A tool's pages.
pub trait Pages: Send + Sync {
    /// The path segment after `/ui/`, e.g. `toppo`.
    fn name(&self) -> &'static str;
    /// What the page is, for the link to it, e.g. `Toppo: play against bots`.
    fn title(&self) -> &'static str;
    /// The answer to `GET /ui/<name>/<rest...>?query`.
    fn get(&self, rest: &[&str], query: Option<&str>) -> Reply;
}
