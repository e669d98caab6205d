package stdlib

// params lists the argument names each function reads, in the order
// `a0 help stdlib` shows them (optional ones included). The evaluator
// built-ins map, reduce and filter-with-fn are listed too, so a caller can
// name the expected arguments of every function an A0 program may call.
var params = map[string][]string{
	"parse.json":     {"in"},
	"get":            {"in", "path"},
	"put":            {"in", "path", "value"},
	"patch":          {"in", "ops"},
	"eq":             {"a", "b"},
	"contains":       {"in", "value"},
	"not":            {"in"},
	"and":            {"a", "b"},
	"or":             {"a", "b"},
	"coalesce":       {"in", "default"},
	"typeof":         {"in"},
	"len":            {"in"},
	"append":         {"in", "value"},
	"concat":         {"a", "b"},
	"sort":           {"in", "by"},
	"filter":         {"in", "by", "fn"},
	"find":           {"in", "key", "value"},
	"range":          {"from", "to"},
	"join":           {"in", "sep"},
	"unique":         {"in"},
	"pluck":          {"in", "key"},
	"flat":           {"in"},
	"str.concat":     {"parts"},
	"str.split":      {"in", "sep"},
	"str.starts":     {"in", "value"},
	"str.ends":       {"in", "value"},
	"str.replace":    {"in", "from", "to"},
	"str.template":   {"in", "vars"},
	"keys":           {"in"},
	"values":         {"in"},
	"entries":        {"in"},
	"merge":          {"a", "b"},
	"math.max":       {"in"},
	"math.min":       {"in"},
	"re.test":        {"in", "pattern"},
	"re.find":        {"in", "pattern"},
	"re.findAll":     {"in", "pattern", "limit"},
	"re.replace":     {"in", "pattern", "to", "limit"},
	"re.split":       {"in", "pattern", "limit"},
	"str.trim":       {"in", "chars"},
	"str.trimStart":  {"in", "chars"},
	"str.trimEnd":    {"in", "chars"},
	"str.lower":      {"in"},
	"str.upper":      {"in"},
	"str.lines":      {"in"},
	"str.padStart":   {"in", "len", "with"},
	"str.padEnd":     {"in", "len", "with"},
	"str.repeat":     {"in", "times"},
	"json.stringify": {"in", "indent"},
	"base64.encode":  {"in"},
	"base64.decode":  {"in", "as"},
	"hex.encode":     {"in"},
	"hex.decode":     {"in", "as"},
	"parse.number":   {"in"},
	"map":            {"in", "fn"},
	"reduce":         {"in", "fn", "init"},
}

// Params returns the argument names the function name takes (stdlib
// functions and the built-ins map, reduce and filter), and whether name is
// one of them. The slice must not be modified.
func Params(name string) ([]string, bool) {
	p, ok := params[name]
	return p, ok
}
