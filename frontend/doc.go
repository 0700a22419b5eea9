// Package frontend embeds Tessera's static web page (plain HTML, CSS and JS
// modules, SVG tiles) and serves it with the headers it needs: exact content
// types, a strict Content-Security-Policy that allows nothing from another
// origin, and revalidation caching so a deploy is seen at once.
//
// The page holds no rules of its own: it draws the view the HTTP API returns
// (see API.md) and offers only the moves that view lists as legal.
//
// Routes served by Handler:
//
//	/              the start page (index.html)
//	/g/{id}        the game page (game.html, the same shell for every game)
//	/assets/{file} scripts, styles and icons
package frontend
