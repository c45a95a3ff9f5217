package main

// Custom resources the manifests use (Prometheus Operator, KEDA) have no Go types here: they are decoded
// into small structs with only the fields checked, strictly (an unknown field in those structs' scope is
// still allowed, since the CRDs have many more), and cross-checked against the rendered workloads.

import (
	"encoding/json"
	"fmt"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

var crdKinds = map[string]string{
	"PodMonitor":            "monitoring.coreos.com/v1",
	"PrometheusRule":        "monitoring.coreos.com/v1",
	"ScaledObject":          "keda.sh/v1alpha1",
	"TriggerAuthentication": "keda.sh/v1alpha1",
}

type crdHeader struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   metav1.ObjectMeta `json:"metadata"`
}

type podMonitor struct {
	Spec struct {
		Selector            metav1.LabelSelector `json:"selector"`
		PodMetricsEndpoints []struct {
			Port string `json:"port"`
			Path string `json:"path"`
		} `json:"podMetricsEndpoints"`
	} `json:"spec"`
}

type prometheusRule struct {
	Spec struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Alert       string            `json:"alert"`
				Record      string            `json:"record"`
				Expr        string            `json:"expr"`
				Annotations map[string]string `json:"annotations"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

type scaledObject struct {
	Spec struct {
		ScaleTargetRef struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Name       string `json:"name"`
		} `json:"scaleTargetRef"`
		MinReplicaCount *int32 `json:"minReplicaCount"`
		MaxReplicaCount *int32 `json:"maxReplicaCount"`
		Triggers        []struct {
			Type              string            `json:"type"`
			Metadata          map[string]string `json:"metadata"`
			AuthenticationRef *struct {
				Name string `json:"name"`
				Kind string `json:"kind"`
			} `json:"authenticationRef"`
		} `json:"triggers"`
	} `json:"spec"`
}

type triggerAuthentication struct {
	Spec struct {
		SecretTargetRef []struct {
			Parameter string `json:"parameter"`
			Name      string `json:"name"`
			Key       string `json:"key"`
		} `json:"secretTargetRef"`
	} `json:"spec"`
}

// customDoc is a custom resource's object and its raw document, checked after everything is loaded.
type customDoc struct {
	object
	doc []byte
}

// decodeCustom returns the header of a known custom resource, or ok=false for any other kind.
func decodeCustom(doc []byte) (crdHeader, bool, error) {
	var h crdHeader
	if err := yaml.Unmarshal(doc, &h); err != nil {
		return h, false, err
	}
	want, known := crdKinds[h.Kind]
	if !known {
		return h, false, nil
	}
	if h.APIVersion != want {
		return h, true, fmt.Errorf("%s: apiVersion %q, want %q", h.Kind, h.APIVersion, want)
	}
	return h, true, nil
}

func (c *checker) checkCustom(o object, doc []byte) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		c.addf(o, "%v", err)
		return
	}
	switch o.kind {
	case "PodMonitor":
		var pm podMonitor
		if err := json.Unmarshal(js, &pm); err != nil {
			c.addf(o, "%v", err)
			return
		}
		c.mustSelectPods(o, &pm.Spec.Selector, "spec.selector")
		sel, err := metav1.LabelSelectorAsSelector(&pm.Spec.Selector)
		if err != nil || len(pm.Spec.PodMetricsEndpoints) == 0 {
			c.addf(o, "spec.podMetricsEndpoints is empty")
			return
		}
		for _, w := range c.selected(o.ns, sel) {
			if w.kind != "Deployment" {
				continue
			}
			for _, ep := range pm.Spec.PodMetricsEndpoints {
				if !declaresNamedPort(w.template, ep.Port) {
					c.addf(o, "endpoint port %q is not a container port of %s %s", ep.Port, w.kind, w.name)
				}
			}
		}
	case "PrometheusRule":
		var pr prometheusRule
		if err := json.Unmarshal(js, &pr); err != nil {
			c.addf(o, "%v", err)
			return
		}
		for _, g := range pr.Spec.Groups {
			for _, r := range g.Rules {
				if r.Expr == "" {
					c.addf(o, "group %s: a rule without expr", g.Name)
				}
				if r.Alert != "" && strings.Contains(r.Expr, "switchyard_kafka_consumer_lag") {
					c.addf(o, "alert %s reads switchyard_kafka_consumer_lag, the lag consumers report themselves: it freezes when a consumer stops fetching; alert on broker-side lag (kafka_consumergroup_lag)", r.Alert)
				}
				if r.Alert != "" {
					if r.Annotations["runbook"] == "" {
						c.addf(o, "alert %s has no runbook annotation", r.Alert)
					}
				}
			}
		}
	case "ScaledObject":
		var so scaledObject
		if err := json.Unmarshal(js, &so); err != nil {
			c.addf(o, "%v", err)
			return
		}
		ref := so.Spec.ScaleTargetRef
		kind := ref.Kind
		if kind == "" {
			kind = "Deployment"
		}
		if _, ok := c.find(kind, o.ns, ref.Name); !ok {
			c.addf(o, "scaleTargetRef %s %q not found", kind, ref.Name)
		}
		for _, other := range c.objects {
			if other.kind == "HorizontalPodAutoscaler" && other.ns == o.ns {
				if hpa, ok := other.obj.(*autoscalingv2.HorizontalPodAutoscaler); ok && hpa.Spec.ScaleTargetRef.Name == ref.Name {
					c.addf(o, "HorizontalPodAutoscaler %s also scales %s: KEDA creates its own HPA (remove one)", hpa.Name, ref.Name)
				}
			}
		}
		if so.Spec.MaxReplicaCount == nil || len(so.Spec.Triggers) == 0 {
			c.addf(o, "maxReplicaCount and at least one trigger are required")
		}
		for _, t := range so.Spec.Triggers {
			if t.Type != "kafka" {
				continue
			}
			if t.Metadata["consumerGroup"] == "" || t.Metadata["topic"] == "" || (t.Metadata["bootstrapServers"] == "" && t.Metadata["bootstrapServersFromEnv"] == "") {
				c.addf(o, "kafka trigger needs bootstrapServers(FromEnv), consumerGroup and topic")
			}
			auth := ""
			if t.AuthenticationRef != nil {
				auth = t.AuthenticationRef.Name
			}
			c.checkKafkaTrigger(o, ref.Name, t.Metadata, auth)
		}
	case "TriggerAuthentication":
		var ta triggerAuthentication
		if err := json.Unmarshal(js, &ta); err != nil {
			c.addf(o, "%v", err)
			return
		}
		for _, ref := range ta.Spec.SecretTargetRef {
			if ref.Name == "" || ref.Key == "" || ref.Parameter == "" {
				c.addf(o, "secretTargetRef needs parameter, name and key")
			}
		}
	}
}

func declaresNamedPort(spec corev1.PodSpec, name string) bool {
	for _, ct := range spec.Containers {
		for _, p := range ct.Ports {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}
