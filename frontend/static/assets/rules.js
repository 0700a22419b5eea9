// Made by frontend/config_test.go (-update). Do not edit.
import { t, has } from './i18n.js';

export const RULES = {"block":{"title":"Block","clockwise":false,"pairs":false},"fiveup":{"title":"Five Up","clockwise":true,"pairs":true},"partnership":{"title":"Partnership","clockwise":false,"pairs":false}};
/** ruleTitle: a rule set's name in the page's language (the catalog's variant.<name>; the engine's title without one). */
export const ruleTitle = (v) => (has('variant.' + v) ? t('variant.' + v) : (RULES[v] || {}).title || v);
