// Command promql-check parses every expression of every PrometheusRule (monitoring.coreos.com/v1) in the
// given YAML files (multi-document streams, e.g. rendered kustomize output) with Prometheus' own PromQL
// parser, the one Prometheus and promtool load rules with: syntax, function names and argument types.
// It also checks that each rule is an alert or a recording rule and that `for` / `keep_firing_for` are
// Prometheus durations.
//
// Usage: promql-check FILE...   Exit status 1 when any expression or duration is invalid.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
	"gopkg.in/yaml.v3"
)

type rule struct {
	Alert         string `yaml:"alert"`
	Record        string `yaml:"record"`
	Expr          string `yaml:"expr"`
	For           string `yaml:"for"`
	KeepFiringFor string `yaml:"keep_firing_for"`
}

type document struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Groups []struct {
			Name  string `yaml:"name"`
			Rules []rule `yaml:"rules"`
		} `yaml:"groups"`
	} `yaml:"spec"`
}

// The parser with promtool's default options (no experimental functions or syntax).
var promql = parser.NewParser(parser.Options{})

// check returns one problem per invalid rule of the file and the number of expressions parsed.
func check(path string) (problems []string, parsed int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	decoder := yaml.NewDecoder(f)
	for {
		var doc document
		if err := decoder.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return problems, parsed, nil
			}
			return problems, parsed, fmt.Errorf("%s: %w", path, err)
		}
		if doc.Kind != "PrometheusRule" {
			continue
		}
		for _, group := range doc.Spec.Groups {
			for i, r := range group.Rules {
				name := r.Alert
				if name == "" {
					name = r.Record
				}
				where := fmt.Sprintf("%s: PrometheusRule %s, group %s, rule %d (%s)", path, doc.Metadata.Name, group.Name, i+1, name)
				if (r.Alert == "") == (r.Record == "") {
					problems = append(problems, where+": exactly one of alert and record must be set")
				}
				if _, err := promql.ParseExpr(r.Expr); err != nil {
					problems = append(problems, fmt.Sprintf("%s: expr: %v", where, err))
				}
				parsed++
				for key, value := range map[string]string{"for": r.For, "keep_firing_for": r.KeepFiringFor} {
					if value == "" {
						continue
					}
					if _, err := model.ParseDuration(value); err != nil {
						problems = append(problems, fmt.Sprintf("%s: %s: %v", where, key, err))
					}
				}
			}
		}
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: promql-check FILE...")
		os.Exit(2)
	}
	failed := false
	for _, path := range os.Args[1:] {
		problems, parsed, err := check(path)
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "promql-check:", p)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "promql-check:", err)
			failed = true
		}
		if len(problems) > 0 {
			failed = true
		}
		fmt.Printf("%s: %d rule expressions parsed, %d problems\n", path, parsed, len(problems))
	}
	if failed {
		os.Exit(1)
	}
}
