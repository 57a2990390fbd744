{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "webhook-dispatcher.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "WEBHOOK_SECRET_KEY") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "WEBHOOK_SECRET_PREVIOUS_KEYS" "optional" true) }}
- name: WEBHOOK_ALLOW_PRIVATE_TARGETS
  value: {{ .Values.webhooks.allowPrivateTargets | quote }}
{{- end -}}
