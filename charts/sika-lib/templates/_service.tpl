{{/* A ClusterIP Service with one port per entry of .Values.ports, same number and name as the container's. */}}
{{- define "sika-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "sika-lib.fullname" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
  {{- with .Values.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: ClusterIP
  selector:
    {{- include "sika-lib.selectorLabels" . | nindent 4 }}
  ports:
    {{- range $name, $port := .Values.ports }}
    - name: {{ $name }}
      port: {{ $port }}
      targetPort: {{ $name }}
      protocol: TCP
    {{- end }}
{{- end -}}

{{- define "sika-lib.serviceAccount" -}}
{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "sika-lib.serviceAccountName" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end -}}
{{- end -}}

{{/*
At most maxUnavailable pods of the service evicted at once (node drains, cluster upgrades). maxUnavailable
rather than minAvailable: it never blocks a drain, whatever the replica count.
*/}}
{{- define "sika-lib.podDisruptionBudget" -}}
{{- if .Values.podDisruptionBudget.enabled -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "sika-lib.fullname" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
spec:
  maxUnavailable: {{ .Values.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "sika-lib.selectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}

{{- define "sika-lib.horizontalPodAutoscaler" -}}
{{- if .Values.autoscaling.enabled -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "sika-lib.fullname" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "sika-lib.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
    {{- with .Values.autoscaling.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
{{- end -}}
{{- end -}}

{{/* Optional Ingress to the service's "http" port (gateway, checkout-web, psp-connector's callbacks). */}}
{{- define "sika-lib.ingress" -}}
{{- if .Values.ingress.enabled -}}
{{- $fullname := include "sika-lib.fullname" . -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
  {{- with .Values.ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .Values.ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- with .Values.ingress.tls }}
  tls:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  rules:
    {{- range .Values.ingress.hosts }}
    - host: {{ .host | quote }}
      http:
        paths:
          {{- range .paths }}
          - path: {{ .path }}
            pathType: {{ .pathType }}
            backend:
              service:
                name: {{ $fullname }}
                port:
                  name: http
          {{- end }}
    {{- end }}
{{- end -}}
{{- end -}}

{{/*
The public URL the Ingress gives the service ("https://<first host>" with TLS, else "http://..."), or "" when
the Ingress is off. Used as the default of the URLs a service announces (gateway's PUBLIC_BASE_URL,
psp-connector's callback URL).
*/}}
{{- define "sika-lib.ingressUrl" -}}
{{- if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- $host := (first .Values.ingress.hosts).host -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty .Values.ingress.tls))) $host -}}
{{- end -}}
{{- end -}}

{{/*
Optional ServiceMonitor (Prometheus Operator) scraping the service's "metrics" port, the operations port that
carries /metrics and nothing public: on when .Values.serviceMonitor.enabled or global.monitoring.serviceMonitor.
*/}}
{{- define "sika-lib.serviceMonitor" -}}
{{- if or .Values.serviceMonitor.enabled ((.Values.global).monitoring).serviceMonitor -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "sika-lib.fullname" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
    {{- with .Values.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "sika-lib.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: metrics
      path: /metrics
      interval: {{ .Values.serviceMonitor.interval }}
      scrapeTimeout: {{ .Values.serviceMonitor.scrapeTimeout }}
{{- end -}}
{{- end -}}
