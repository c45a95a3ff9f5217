// k8s-check validates rendered Kubernetes manifests offline, with the API's own Go types (k8s.io/api):
//   - strict decoding of every document into its typed struct: unknown or duplicate fields, wrong
//     types and unknown kinds fail (no JSON schema download needed);
//   - references a schema cannot see: selectors that parse and select pods, Services whose targetPort
//     exists on the selected containers, probes on declared ports, ConfigMaps, Secrets and keys that
//     exist, HPA targets, PDB and NetworkPolicy selectors, requests within limits, duplicate names;
//   - the custom resources used (crds.go): PodMonitor ports, PrometheusRule runbooks, KEDA ScaledObject
//     targets (and no second HPA on the same Deployment);
//   - operational rules (operations.go, network-and-startup.go; files.go, autoscaling.go): Jobs that `kubectl apply` can update, the topics Job's settings
//     equal to the services', and the others listed there.
//
// Usage: k8s-check [-external-secrets=NAME,...] [-job-script=JOB] FILE... ("-" reads standard input, e.g.
// `kustomize build k8s/base | k8s-check -`). Each FILE is one rendered set: references must resolve
// inside it, except Secrets named in -external-secrets (created outside the render, e.g. for the base).
// -job-script=JOB prints the last argument of the Job's first container (its `bash -ec` script) and
// checks nothing: validate-deploy runs that script against stubs.
// Exit status: 0 valid, 1 invalid, 2 usage or I/O error.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type object struct {
	source string // file#document
	kind   string
	ns     string
	name   string
	obj    runtime.Object
}

// workload is a pod template owned by a Deployment or a Job.
type workload struct {
	object
	labels   labels.Set
	template corev1.PodSpec
}

// jobScript: -job-script=JOB (print that Job's script instead of checking).
var jobScript string

// externalSecrets: Secrets that exist outside the rendered set (the base ships none).
var externalSecrets = map[string]bool{}

type checker struct {
	customs   []customDoc
	objects   []object
	workloads []workload
	problems  []string
}

func (c *checker) addf(o object, format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf("%s %s/%s (%s): %s", o.kind, o.ns, o.name, o.source, fmt.Sprintf(format, args...)))
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-check FILE... (- for standard input)")
		os.Exit(2)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, autoscalingv2.AddToScheme,
		policyv1.AddToScheme, networkingv1.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()

	var paths []string
	for _, arg := range os.Args[1:] {
		if name, ok := strings.CutPrefix(arg, "-job-script="); ok {
			jobScript = name
			continue
		}
		if names, ok := strings.CutPrefix(arg, "-external-secrets="); ok {
			for _, n := range strings.Split(names, ",") {
				if n != "" {
					externalSecrets[n] = true
				}
			}
			continue
		}
		paths = append(paths, arg)
	}
	// Each file is one rendered set (one `kustomize build`): references resolve within it.
	failed := false
	for _, path := range paths {
		c := &checker{}
		if err := c.load(path, decoder); err != nil {
			fmt.Fprintf(os.Stderr, "k8s-check: %s: %v\n", path, err)
			os.Exit(2)
		}
		if jobScript != "" {
			os.Exit(c.printJobScript(jobScript))
		}
		c.checkAll()
		if len(c.problems) > 0 {
			failed = true
			sort.Strings(c.problems)
			fmt.Fprintf(os.Stderr, "k8s-check: %s INVALID (%d problems)\n", path, len(c.problems))
			for _, p := range c.problems {
				fmt.Fprintf(os.Stderr, "  - %s\n", p)
			}
			continue
		}
		kinds := map[string]int{}
		for _, o := range c.objects {
			kinds[o.kind]++
		}
		var parts []string
		for k, n := range kinds {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
		sort.Strings(parts)
		fmt.Printf("k8s-check: %s valid (typed strict decode + references): %d objects: %s\n",
			path, len(c.objects), strings.Join(parts, ", "))
	}
	if failed {
		os.Exit(1)
	}
}

func (c *checker) load(path string, decoder runtime.Decoder) error {
	var in io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(in))
	for index := 1; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(doc)) == 0 || isCommentOnly(doc) {
			continue
		}
		source := fmt.Sprintf("%s#%d", path, index)
		if h, known, err := decodeCustom(doc); err != nil || known {
			if err != nil {
				c.problems = append(c.problems, fmt.Sprintf("%s: %v", source, err))
				continue
			}
			o := object{source: source, kind: h.Kind, ns: h.Metadata.Namespace, name: h.Metadata.Name}
			c.objects = append(c.objects, o)
			c.customs = append(c.customs, customDoc{o, doc})
			continue
		}
		obj, gvk, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			c.problems = append(c.problems, fmt.Sprintf("%s: %v", source, err))
			continue
		}
		meta, err := metaOf(obj)
		if err != nil {
			c.problems = append(c.problems, fmt.Sprintf("%s: %v", source, err))
			continue
		}
		o := object{source: source, kind: gvk.Kind, ns: meta.GetNamespace(), name: meta.GetName(), obj: obj}
		c.objects = append(c.objects, o)
		switch t := obj.(type) {
		case *appsv1.Deployment:
			c.workloads = append(c.workloads, workload{o, t.Spec.Template.Labels, t.Spec.Template.Spec})
		case *batchv1.Job:
			c.workloads = append(c.workloads, workload{o, t.Spec.Template.Labels, t.Spec.Template.Spec})
		case *batchv1.CronJob:
			c.workloads = append(c.workloads, workload{o, t.Spec.JobTemplate.Spec.Template.Labels, t.Spec.JobTemplate.Spec.Template.Spec})
		}
	}
}

func isCommentOnly(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

func metaOf(obj runtime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no object metadata", obj)
	}
	return m, nil
}

func (c *checker) checkAll() {
	seen := map[string]string{}
	for _, o := range c.objects {
		key := o.kind + "/" + o.ns + "/" + o.name
		if first, dup := seen[key]; dup {
			c.addf(o, "duplicate of %s", first)
		}
		seen[key] = o.source
		if errs := validation.IsDNS1123Subdomain(o.name); len(errs) > 0 {
			c.addf(o, "invalid name: %s", strings.Join(errs, "; "))
		}
		if o.kind != "Namespace" && o.ns == "" {
			c.addf(o, "no namespace (the kustomization should set one)")
		}
		switch t := o.obj.(type) {
		case *appsv1.Deployment:
			c.checkSelector(o, t.Spec.Selector, t.Spec.Template.Labels, "spec.selector")
			c.checkPodSpec(o, t.Spec.Template.Spec)
		case *batchv1.Job:
			c.checkPodSpec(o, t.Spec.Template.Spec)
		case *batchv1.CronJob:
			c.checkPodSpec(o, t.Spec.JobTemplate.Spec.Template.Spec)
		case *corev1.Service:
			c.checkService(o, t)
		case *autoscalingv2.HorizontalPodAutoscaler:
			c.checkHPA(o, t)
		case *policyv1.PodDisruptionBudget:
			if t.Spec.MinAvailable != nil && t.Spec.MaxUnavailable != nil {
				c.addf(o, "minAvailable and maxUnavailable are mutually exclusive")
			}
			c.mustSelectPods(o, t.Spec.Selector, "spec.selector")
		case *networkingv1.NetworkPolicy:
			c.checkNetworkPolicy(o, t)
		}
	}
	for _, cd := range c.customs {
		c.checkCustom(cd.object, cd.doc)
	}
	c.checkOperations()
}
