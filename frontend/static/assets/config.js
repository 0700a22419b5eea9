// config.js: the server's facts the start page offers, made from the
// engine's rules and the computer players it has (frontend/config_test.go;
// `go test ./frontend -run TestConfigIsCurrent -update` rewrites it). Do not edit.

/** LEVELS: the computer players' levels, weakest first. */
export const LEVELS = ["easy","medium","hard","expert"];

/** TARGET: the targets a match may be played to. */
export const TARGET = {"max":1000,"min":1};

/** ORDER: the rule sets, as the start page offers them. */
export const ORDER = ["fiveup","partnership","block"];

/**
 * VARIANTS: per rule set, its title, whether its ends count, the player
 * counts, the pairs values allowed for each count, the redeal values
 * allowed, the defaults, and whether it may be rated.
 */
export const VARIANTS = {"block":{"title":"Block","counts":false,"players":[2,3,4],"defaultPlayers":4,"pairs":{"2":[false],"3":[false],"4":[false]},"redeal":[false],"defaultRedeal":false,"target":100,"rated":false},"fiveup":{"title":"Five Up","counts":true,"players":[2,3,4],"defaultPlayers":4,"pairs":{"2":[false],"3":[false],"4":[false,true]},"redeal":[false,true],"defaultRedeal":true,"target":250,"rated":true},"partnership":{"title":"Partnership","counts":false,"players":[4],"defaultPlayers":4,"pairs":{"4":[true]},"redeal":[false],"defaultRedeal":false,"target":50,"rated":true}};

/** POOLS: the rating pools (API.md "Ratings"), as the room lists their leaderboards. */
export const POOLS = ["fiveup-duel","fiveup-multi","fiveup-pairs","partnership"];

/** MIN_FINISHED: the matches a key must have finished to play at a rated table. */
export const MIN_FINISHED = 3;

/** TROPHIES: every trophy, in API.md's order (the registry: game.Trophies). */
export const TROPHIES = ["first-match","ten-matches","hundred-matches","domino","thirty","four-arms","clean-sweep","comeback","five-in-a-row","on-time","league-champion","tournament-winner"];

/** FORMATS: the tournament formats, as the room offers them (the registry: community.Formats). */
export const FORMATS = ["swiss","roundrobin"];
