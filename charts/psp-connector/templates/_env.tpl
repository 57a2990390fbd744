{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{/* Test mode uses the release's simulator unless pispi.test.baseUrl names another participant. */}}
{{- define "psp-connector.testModeUsesSimulator" -}}
{{- if and (not .Values.pispi.test.baseUrl) (dig "testMode" "enabled" true (.Values.global | default dict)) -}}
true
{{- end -}}
{{- end -}}

{{- define "psp-connector.testBaseUrl" -}}
{{- if .Values.pispi.test.baseUrl -}}
{{- .Values.pispi.test.baseUrl -}}
{{- else if include "psp-connector.testModeUsesSimulator" . -}}
{{- printf "http://%s" (include "sika-lib.peerAddress" (dict "root" . "peer" "pispi-simulator")) -}}
{{- else -}}
{{- fail "pispi.test.baseUrl is required when global.testMode.enabled is false (there is no simulator to talk to)" -}}
{{- end -}}
{{- end -}}

{{/*
The Secret holding a mode's mutual TLS material, (dict "root" . "mode" "live"), with the keys tls.crt (Sika's
client certificate, its chain after it), tls.key and ca.crt (the participant's CA): pispi.<mode>.tls.existingSecret;
in live mode, "<fullname>-pispi-live-tls" when that is empty (live always requires it). Empty: no mutual TLS.
*/}}
{{- define "psp-connector.tlsSecretName" -}}
{{- $pispi := get .root.Values.pispi .mode -}}
{{- if eq .mode "live" -}}
{{- if $pispi.enabled -}}
{{- $pispi.tls.existingSecret | default (printf "%s-pispi-live-tls" (include "sika-lib.fullname" .root)) -}}
{{- end -}}
{{- else -}}
{{- $pispi.tls.existingSecret -}}
{{- end -}}
{{- end -}}

{{/* Where a mode's TLS Secret is mounted (read-only; templates/deployment.yaml). */}}
{{- define "psp-connector.tlsMountPath" -}}
{{- printf "/etc/sika/pispi/%s" . -}}
{{- end -}}

{{/* The three PISPI_<MODE>_TLS_*_FILE variables of a mode whose TLS Secret is mounted. */}}
{{- define "psp-connector.tlsEnv" -}}
{{- if include "psp-connector.tlsSecretName" . -}}
{{- $path := include "psp-connector.tlsMountPath" .mode -}}
{{- $prefix := printf "PISPI_%s_TLS" (upper .mode) -}}
{{ include "sika-lib.envVar" (dict "name" (printf "%s_CERT_FILE" $prefix) "value" (printf "%s/tls.crt" $path)) }}
{{ include "sika-lib.envVar" (dict "name" (printf "%s_KEY_FILE" $prefix) "value" (printf "%s/tls.key" $path)) }}
{{ include "sika-lib.envVar" (dict "name" (printf "%s_CA_FILE" $prefix) "value" (printf "%s/ca.crt" $path)) }}
{{- end -}}
{{- end -}}

{{- define "psp-connector.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "DATABASE_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "AMQP_URL") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "CALLBACK_SECRET_KEY") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "CALLBACK_SECRET_PREVIOUS_KEYS" "optional" true) }}
{{ include "sika-lib.envVar" (dict "name" "PSP_CALLBACK_PUBLIC_URL" "value" (.Values.pispi.callbackPublicUrl | default (include "sika-lib.ingressUrl" .) | default (printf "http://%s:%s" (include "sika-lib.fullname" .) (toString .Values.ports.http)))) }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_BASE_URL" "value" (include "psp-connector.testBaseUrl" .)) }}
{{- with .Values.pispi.test.tokenUrl }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_TOKEN_URL" "value" .) }}
{{- end }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_TEST_PAYEE_ALIAS" "value" .Values.pispi.test.payeeAlias) }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_TEST_CLIENT_ID") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_TEST_CLIENT_SECRET") }}
{{- with include "psp-connector.tlsEnv" (dict "root" . "mode" "test") }}
{{ . }}
{{- end }}
{{- if .Values.pispi.live.enabled }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_BASE_URL" "value" (required "pispi.live.baseUrl is required when pispi.live.enabled" .Values.pispi.live.baseUrl)) }}
{{- with .Values.pispi.live.tokenUrl }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_TOKEN_URL" "value" .) }}
{{- end }}
{{ include "sika-lib.envVar" (dict "name" "PISPI_LIVE_PAYEE_ALIAS" "value" (required "pispi.live.payeeAlias is required when pispi.live.enabled" .Values.pispi.live.payeeAlias)) }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_LIVE_CLIENT_ID") }}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "PISPI_LIVE_CLIENT_SECRET") }}
{{ include "psp-connector.tlsEnv" (dict "root" . "mode" "live") }}
{{- end }}
{{- end -}}
