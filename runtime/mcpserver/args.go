package mcpserver

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// plainArgError says in plain English what is wrong with an MCP tool's
// arguments that encoding/json refused (its own text names Go types and
// struct fields, such as "Go struct field mcpSourceInput.source"). into is
// the struct the arguments were decoded into.
func plainArgError(err error, into any) string {
	props := argProps(into)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		name := te.Field
		if name == "" {
			return "the arguments must be a JSON object with " + props
		}
		return "\"" + name + "\" must be " + jsonKind(te.Type) + ", not " + article(te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "the arguments are not valid JSON (" + strings.TrimPrefix(se.Error(), "json: ") + ")"
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown property " + rest + "; this tool takes " + props
	}
	return strings.TrimPrefix(msg, "json: ")
}

// argProps lists the JSON names of into's fields: "source and filename".
func argProps(into any) string {
	t := reflect.TypeOf(into)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return "no properties"
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			names = append(names, "\""+tag+"\"")
		}
	}
	switch len(names) {
	case 0:
		return "no properties"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// jsonKind names a Go type as the JSON value it decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

// article puts "a" or "an" before a JSON value kind from encoding/json
// ("number", "array", "object", "string", "bool").
func article(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "bool":
		return "a boolean"
	}
	return "a " + v
}
