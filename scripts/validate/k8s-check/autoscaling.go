package main

// Autoscaling (issue 31, day 30): every Switchyard service scales, and what it scales on can be computed.

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// autoscaled: the Deployments that must have an HPA (or a KEDA ScaledObject) wherever they are rendered.
var autoscaled = []string{"gateway", "users-bots", "posts", "incoming-hooks", "outgoing-dispatch", "realtime"}

// scaledTargets: Deployment name -> what scales it ("HorizontalPodAutoscaler x" or "ScaledObject y").
func (c *checker) scaledTargets(ns string) map[string]string {
	out := map[string]string{}
	for _, o := range c.objects {
		if hpa, ok := o.obj.(*autoscalingv2.HorizontalPodAutoscaler); ok && o.ns == ns && hpa.Spec.ScaleTargetRef.Kind == "Deployment" {
			out[hpa.Spec.ScaleTargetRef.Name] = "HorizontalPodAutoscaler " + o.name
		}
	}
	for _, cd := range c.customs {
		if cd.kind != "ScaledObject" || cd.ns != ns {
			continue
		}
		js, err := yaml.YAMLToJSON(cd.doc)
		if err != nil {
			continue
		}
		var so scaledObject
		if json.Unmarshal(js, &so) == nil && (so.Spec.ScaleTargetRef.Kind == "" || so.Spec.ScaleTargetRef.Kind == "Deployment") {
			out[so.Spec.ScaleTargetRef.Name] = "ScaledObject " + cd.name
		}
	}
	return out
}

// checkAutoscaling:
//   - each service Deployment is scaled by an HPA or a ScaledObject;
//   - a Deployment something scales sets no spec.replicas (every `kubectl apply` would reset the count the
//     autoscaler chose: a scale-down in the middle of a peak);
//   - an HPA on a Resource metric with Utilization can compute it: every container of the target requests
//     that resource (otherwise the HPA reports FailedGetResourceMetric and never scales).
func (c *checker) checkAutoscaling() {
	for _, w := range c.workloads {
		d, ok := w.obj.(*appsv1.Deployment)
		if !ok {
			continue
		}
		targets := c.scaledTargets(w.ns)
		by, scaled := targets[w.name]
		for _, name := range autoscaled {
			if name == w.name && !scaled {
				c.addf(w.object, "no HorizontalPodAutoscaler or ScaledObject scales it (k8s/base/autoscaling.yaml)")
			}
		}
		if scaled && d.Spec.Replicas != nil {
			c.addf(w.object, "spec.replicas is %d while %s scales it: every `kubectl apply` would reset the replica count (remove /spec/replicas)", *d.Spec.Replicas, by)
		}
	}
	for _, o := range c.objects {
		hpa, ok := o.obj.(*autoscalingv2.HorizontalPodAutoscaler)
		if !ok {
			continue
		}
		target, found := c.find("Deployment", o.ns, hpa.Spec.ScaleTargetRef.Name)
		if !found || target.obj == nil {
			continue
		}
		d := target.obj.(*appsv1.Deployment)
		for _, m := range hpa.Spec.Metrics {
			if m.Type != autoscalingv2.ResourceMetricSourceType || m.Resource == nil || m.Resource.Target.Type != autoscalingv2.UtilizationMetricType {
				continue
			}
			for _, ct := range d.Spec.Template.Spec.Containers {
				if _, has := ct.Resources.Requests[corev1.ResourceName(m.Resource.Name)]; !has {
					c.addf(o, "scales on %s utilization but container %s of %s requests no %s: the HPA cannot compute it and never scales", m.Resource.Name, ct.Name, d.Name, m.Resource.Name)
				}
			}
		}
	}
}
