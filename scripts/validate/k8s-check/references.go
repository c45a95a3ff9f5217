package main

// Cross-references between rendered objects: selectors that select pods, and lookups of named objects and keys.

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func (c *checker) checkSelector(o object, sel *metav1.LabelSelector, template map[string]string, field string) {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		c.addf(o, "%s: %v", field, err)
		return
	}
	if s.Empty() {
		c.addf(o, "%s is empty", field)
	} else if !s.Matches(labels.Set(template)) {
		c.addf(o, "%s (%s) does not match the pod template labels %v", field, s, template)
	}
}

// mustSelectPods reports a selector that does not parse or selects no pod template in its namespace.
func (c *checker) mustSelectPods(o object, sel *metav1.LabelSelector, field string) {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		c.addf(o, "%s: %v", field, err)
		return
	}
	if len(c.selected(o.ns, s)) == 0 {
		c.addf(o, "%s (%s) selects no pod of a Deployment or Job in namespace %q", field, s, o.ns)
	}
}

func (c *checker) selected(ns string, s labels.Selector) []workload {
	var out []workload
	for _, w := range c.workloads {
		if w.ns == ns && s.Matches(w.labels) {
			out = append(out, w)
		}
	}
	return out
}

func (c *checker) find(kind, ns, name string) (object, bool) {
	if kind == "Secret" && externalSecrets[name] {
		return object{kind: kind, ns: ns, name: name}, true
	}
	for _, o := range c.objects {
		if o.kind == kind && o.ns == ns && o.name == name {
			return o, true
		}
	}
	return object{}, false
}

func (c *checker) hasKey(kind, ns, name, key string) (found, hasKey bool) {
	o, ok := c.find(kind, ns, name)
	if !ok {
		return false, false
	}
	if o.obj == nil { // external: its keys are not known here
		return true, true
	}
	switch t := o.obj.(type) {
	case *corev1.ConfigMap:
		_, inData := t.Data[key]
		_, inBinary := t.BinaryData[key]
		return true, inData || inBinary
	case *corev1.Secret:
		_, inData := t.Data[key]
		_, inString := t.StringData[key]
		return true, inData || inString
	}
	return true, false
}
