// compose-check validates Compose files offline: the Compose Specification JSON schema embedded in
// github.com/compose-spec/compose-go (the loader Docker Compose itself uses), the loader's consistency
// checks (unknown services in depends_on, undefined networks and volumes, ...), and a few checks that
// Docker would only report when `docker compose up` runs.
//
// Usage: compose-check [-project-name NAME] [-print | -env SERVICE | -script SERVICE] docker-compose.yml [more.yml ...]
//
//	-env SERVICE     prints the service's resolved environment (KEY=VALUE lines, sorted) instead of the summary
//	-script SERVICE  prints the last element of the service's command (the script of a `bash -ec` entrypoint)
//
// Exit status: 0 valid, 1 invalid, 2 usage.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

func main() {
	name := flag.String("project-name", "switchyard", "Compose project name")
	dump := flag.Bool("print", false, "print the resolved project (interpolated, normalized) as YAML")
	envOf := flag.String("env", "", "print this service's resolved environment as KEY=VALUE lines")
	scriptOf := flag.String("script", "", "print the last element of this service's command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: compose-check [-project-name NAME] FILE [FILE ...]")
		os.Exit(2)
	}
	opts, err := cli.NewProjectOptions(flag.Args(),
		cli.WithName(*name),
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithInterpolation(true),
		cli.WithNormalization(true),
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		fail([]string{err.Error()})
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		fail([]string{err.Error()})
	}
	if problems := checkProject(project); len(problems) > 0 {
		fail(problems)
	}
	if *envOf != "" || *scriptOf != "" {
		printService(project, *envOf, *scriptOf)
		return
	}
	if *dump {
		out, err := project.MarshalYAML()
		if err != nil {
			fail([]string{err.Error()})
		}
		fmt.Print(string(out))
	}
	names := project.ServiceNames()
	sort.Strings(names)
	summary := os.Stdout
	if *dump {
		summary = os.Stderr
	}
	fmt.Fprintf(summary, "compose-check: %s valid (compose-spec schema + consistency): %d services: %s\n",
		strings.Join(flag.Args(), ", "), len(names), strings.Join(names, ", "))
}

// checkProject finds what the schema cannot see but `docker compose up` would trip over.
func checkProject(p *types.Project) []string {
	var problems []string
	for _, name := range p.ServiceNames() {
		svc := p.Services[name]
		for dep, cfg := range svc.DependsOn {
			target, ok := p.Services[dep]
			if !ok {
				continue // the loader's consistency check reports it
			}
			switch cfg.Condition {
			case types.ServiceConditionHealthy:
				if target.HealthCheck == nil || target.HealthCheck.Disable || len(target.HealthCheck.Test) == 0 {
					problems = append(problems, fmt.Sprintf("service %q waits for %q to be healthy, but %q has no healthcheck", name, dep, dep))
				}
			case types.ServiceConditionCompletedSuccessfully:
				if target.Restart == types.RestartPolicyAlways || target.Restart == types.RestartPolicyUnlessStopped {
					problems = append(problems, fmt.Sprintf("service %q waits for %q to complete, but %q restarts %s", name, dep, dep, target.Restart))
				}
			}
		}
		if svc.Build != nil {
			dockerfile := svc.Build.Dockerfile
			if dockerfile == "" {
				dockerfile = "Dockerfile"
			}
			if !filepath.IsAbs(dockerfile) {
				dockerfile = filepath.Join(svc.Build.Context, dockerfile)
			}
			if _, err := os.Stat(dockerfile); err != nil {
				problems = append(problems, fmt.Sprintf("service %q: dockerfile %s not found", name, dockerfile))
			}
		}
		problems = append(problems, checkShutdown(name, svc)...)
		problems = append(problems, checkFiles(name, svc)...)
		if svc.Image == "" && svc.Build == nil {
			problems = append(problems, fmt.Sprintf("service %q has neither image nor build", name))
		}
	}
	sort.Strings(problems)
	return problems
}

func fail(problems []string) {
	fmt.Fprintln(os.Stderr, "compose-check: INVALID")
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "  - %s\n", p)
	}
	os.Exit(1)
}

// printService prints what the validation scripts and the compose smoke test need of one service.
func printService(p *types.Project, envOf, scriptOf string) {
	name := envOf
	if name == "" {
		name = scriptOf
	}
	svc, ok := p.Services[name]
	if !ok {
		fail([]string{fmt.Sprintf("no service %q", name)})
	}
	if scriptOf != "" {
		if len(svc.Command) == 0 {
			fail([]string{fmt.Sprintf("service %q has no command", name)})
		}
		fmt.Println(svc.Command[len(svc.Command)-1])
		return
	}
	keys := make([]string, 0, len(svc.Environment))
	for k := range svc.Environment {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := svc.Environment[k]; v != nil {
			fmt.Printf("%s=%s\n", k, *v)
		}
	}
}

// defaultShutdownMs is the runtime's SHUTDOWN_TIMEOUT_MS when the env has none (shared/service-runtime).
const defaultShutdownMs = 15_000

// minShutdownMs: services whose graceful shutdown needs more than the default, and why.
var minShutdownMs = map[string]struct {
	ms     int
	reason string
}{
	"outgoing-dispatch": {35_000, "one in-flight webhook callback at the default 30 s timeout, then committing offsets"},
}

// checkShutdown: a Switchyard service (built with the SERVICE argument) must finish its own shutdown
// deadline before Docker's SIGKILL (stop_grace_period), and services that need a longer deadline set it.
func checkShutdown(name string, svc types.ServiceConfig) []string {
	if svc.Build == nil || svc.Build.Args["SERVICE"] == nil {
		return nil
	}
	shutdown := defaultShutdownMs
	if v, ok := svc.Environment["SHUTDOWN_TIMEOUT_MS"]; ok && v != nil {
		n, err := strconv.Atoi(*v)
		if err != nil {
			return []string{fmt.Sprintf("service %q: SHUTDOWN_TIMEOUT_MS %q is not a number", name, *v)}
		}
		shutdown = n
	}
	var problems []string
	if want, ok := minShutdownMs[name]; ok && shutdown < want.ms {
		problems = append(problems, fmt.Sprintf("service %q: SHUTDOWN_TIMEOUT_MS is %d ms (set: %t), it needs %d+ (%s)", name, shutdown, svc.Environment["SHUTDOWN_TIMEOUT_MS"] != nil, want.ms, want.reason))
	}
	grace := 10_000 // Docker's default
	if svc.StopGracePeriod != nil {
		grace = int(time.Duration(*svc.StopGracePeriod).Milliseconds())
	}
	if shutdown >= grace {
		problems = append(problems, fmt.Sprintf("service %q: SHUTDOWN_TIMEOUT_MS %d ms is not below stop_grace_period %d ms: Docker kills it mid-shutdown", name, shutdown, grace))
	}
	return problems
}
