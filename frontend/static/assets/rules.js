// Made by frontend/config_test.go (-update). Do not edit.
export const RULES = {"block":{"title":"Block","clockwise":false,"pairs":false},"fiveup":{"title":"Five Up","clockwise":true,"pairs":true},"partnership":{"title":"Partnership","clockwise":false,"pairs":false}};
/** ruleTitle: a rule set's name as the pages write it. */
export const ruleTitle = (v) => (RULES[v] || {}).title || v;
