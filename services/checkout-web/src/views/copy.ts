import type { AliasProblem } from '../app/submit-alias';
import type { Outcome, RetryNotice } from '../domain/screen';

export type ErrorPageKind =
  'not_found' | 'forbidden' | 'bad_request' | 'too_many_submissions' | 'unavailable' | 'internal';

/** The page's languages: French first, the working language of the UEMOA and of its banks' apps. */
export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Every word the customer reads, in French. One place per language, so the tone stays consistent and a
 * translation is one object of the same shape (`Copy`).
 */
const FRENCH = {
  language: 'fr' as Language,
  /** The switch to the other language, written in that language. */
  switchLanguage: { to: 'en' as Language, label: 'English' },
  brand: 'Sika',
  footer: 'Paiement instantané PI-SPI · Sika',
  testMode: 'Mode test : aucun argent ne sera débité.',
  merchant: 'Marchand',
  amount: 'Montant',
  reference: 'Référence',
  description: 'Motif',
  form: {
    title: (amount: string) => `Paiement de ${amount}`,
    heading: (amount: string) => `Payer ${amount}`,
    label: 'Votre numéro de téléphone ou votre identifiant PI-SPI',
    hintBefore: 'Numéro au format international, par exemple ',
    hintExample: '+225 07 00 00 00 01',
    hintAfter: ', ou identifiant de paiement (lettres, chiffres et tirets).',
    submit: 'Envoyer la demande de paiement',
    explain:
      'Vous recevrez la demande dans l’application de votre banque ou de votre portefeuille mobile. Rien n’est débité sans votre validation.',
    errorTitlePrefix: 'Erreur : ',
  },
  notices: {
    previous_declined:
      'Votre demande précédente a été refusée. Vous pouvez réessayer, avec le même alias ou un autre.',
    previous_expired:
      'Votre demande précédente a expiré sans être validée. Vous pouvez en envoyer une nouvelle.',
    previous_failed:
      'Votre demande précédente n’a pas pu être transmise. Vous pouvez réessayer, avec le même alias ou un autre.',
    previous_alias_unknown:
      'L’alias saisi n’est connu d’aucune banque ni d’aucun portefeuille PI-SPI. Vérifiez-le ou saisissez-en un autre.',
  } satisfies Record<RetryNotice, string>,
  problems: {
    alias_missing: 'Saisissez votre numéro de téléphone ou votre identifiant PI-SPI.',
    alias_invalid:
      'Cet alias n’est pas valide. Saisissez un numéro au format international (+, indicatif du pays à 3 chiffres, puis 8 à 10 chiffres) ou un identifiant de 1 à 36 lettres, chiffres ou tirets.',
    alias_unknown:
      'Cet alias n’est connu d’aucune banque ni d’aucun portefeuille PI-SPI. Vérifiez-le ou saisissez-en un autre.',
    too_many_attempts: 'Ce paiement a atteint le nombre maximal de tentatives.',
    unavailable: 'Le service est momentanément indisponible. Réessayez dans un instant.',
  } satisfies Record<AliasProblem, string>,
  waiting: {
    title: 'En attente de votre validation',
    heading: 'Validez le paiement dans votre application',
    sending: 'Envoi de la demande de paiement à votre banque…',
    sent: 'La demande de paiement a été envoyée à votre banque ou à votre portefeuille mobile. Ouvrez son application pour la valider.',
    automatic: 'Cette page se met à jour automatiquement.',
    refresh: 'Actualiser maintenant',
  },
  paid: {
    title: 'Paiement accepté',
    heading: 'Paiement accepté',
    text: 'Merci. Vous pouvez retourner à la boutique.',
  },
  acceptedDeferred: {
    title: 'Paiement à la livraison accepté',
    heading: 'Paiement à la livraison accepté',
    text: 'Rien n’est débité pour l’instant : vous validerez le paiement dans votre application à la réception de la commande.',
  },
  outcomes: {
    declined: {
      heading: 'Paiement refusé',
      text: 'La demande de paiement a été refusée. Aucun montant n’a été débité.',
    },
    expired: {
      heading: 'Délai de paiement dépassé',
      text: 'Le délai pour payer est écoulé. Aucun montant n’a été débité.',
    },
    canceled: { heading: 'Paiement annulé', text: 'Le marchand a annulé ce paiement.' },
    failed: {
      heading: 'Le paiement n’a pas abouti',
      text: 'Une erreur technique est survenue du côté de la banque. Aucun montant n’a été débité.',
    },
    attempts_exhausted: {
      heading: 'Nombre maximal de tentatives atteint',
      text: 'Ce paiement n’accepte plus de nouvelle demande.',
    },
  } satisfies Record<Outcome, { heading: string; text: string }>,
  cancel: 'Annuler et retourner à la boutique',
  abandon: 'Abandonner et retourner à la boutique',
  back: 'Retourner à la boutique',
  errors: {
    not_found: {
      heading: 'Page introuvable',
      text: 'Ce lien de paiement n’existe pas. Vérifiez l’adresse ou contactez le marchand.',
    },
    forbidden: {
      heading: 'Requête refusée',
      text: 'Pour votre sécurité, le formulaire doit être envoyé depuis la page de paiement. Rouvrez le lien de paiement.',
    },
    bad_request: {
      heading: 'Requête invalide',
      text: 'La requête n’a pas pu être lue. Rouvrez le lien de paiement.',
    },
    too_many_submissions: {
      heading: 'Trop de demandes',
      text: 'Trop de demandes de paiement ont été envoyées depuis votre connexion. Patientez quelques minutes, puis rouvrez le lien de paiement.',
    },
    unavailable: {
      heading: 'Service indisponible',
      text: 'Le service est momentanément indisponible. Réessayez dans un instant.',
    },
    internal: {
      heading: 'Une erreur est survenue',
      text: 'Réessayez dans un instant. Si le problème persiste, contactez le marchand.',
    },
  } satisfies Record<ErrorPageKind, { heading: string; text: string }>,
  requestId: 'Identifiant de la requête :',
};

export type Copy = typeof FRENCH;

const ENGLISH: Copy = {
  language: 'en',
  switchLanguage: { to: 'fr', label: 'Français' },
  brand: 'Sika',
  footer: 'PI-SPI instant payment · Sika',
  testMode: 'Test mode: no money will be debited.',
  merchant: 'Merchant',
  amount: 'Amount',
  reference: 'Reference',
  description: 'Reason',
  form: {
    title: (amount: string) => `Payment of ${amount}`,
    heading: (amount: string) => `Pay ${amount}`,
    label: 'Your phone number or PI-SPI identifier',
    hintBefore: 'A number in international format, for example ',
    hintExample: '+225 07 00 00 00 01',
    hintAfter: ', or a payment identifier (letters, digits and hyphens).',
    submit: 'Send the payment request',
    explain:
      'You will receive the request in your bank or mobile wallet app. Nothing is debited until you approve it.',
    errorTitlePrefix: 'Error: ',
  },
  notices: {
    previous_declined:
      'Your previous request was declined. You may try again, with the same alias or another.',
    previous_expired: 'Your previous request expired before it was approved. You may send a new one.',
    previous_failed:
      'Your previous request could not be delivered. You may try again, with the same alias or another.',
    previous_alias_unknown:
      'No PI-SPI bank or wallet knows the alias you entered. Check it, or enter another one.',
  },
  problems: {
    alias_missing: 'Enter your phone number or PI-SPI identifier.',
    alias_invalid:
      'This alias is not valid. Enter a number in international format (+, a 3-digit country code, then 8 to 10 digits) or an identifier of 1 to 36 letters, digits or hyphens.',
    alias_unknown: 'No PI-SPI bank or wallet knows this alias. Check it, or enter another one.',
    too_many_attempts: 'This payment has reached its maximum number of attempts.',
    unavailable: 'The service is temporarily unavailable. Try again in a moment.',
  },
  waiting: {
    title: 'Waiting for your approval',
    heading: 'Approve the payment in your app',
    sending: 'Sending the payment request to your bank…',
    sent: 'The payment request was sent to your bank or mobile wallet. Open its app to approve it.',
    automatic: 'This page updates by itself.',
    refresh: 'Refresh now',
  },
  paid: {
    title: 'Payment accepted',
    heading: 'Payment accepted',
    text: 'Thank you. You may go back to the shop.',
  },
  acceptedDeferred: {
    title: 'Payment on delivery accepted',
    heading: 'Payment on delivery accepted',
    text: 'Nothing is debited yet: you will approve the payment in your app when you receive the order.',
  },
  outcomes: {
    declined: { heading: 'Payment declined', text: 'The payment request was declined. Nothing was debited.' },
    expired: { heading: 'Time to pay has run out', text: 'The time to pay is over. Nothing was debited.' },
    canceled: { heading: 'Payment canceled', text: 'The merchant canceled this payment.' },
    failed: {
      heading: 'The payment did not go through',
      text: 'A technical error occurred at the bank. Nothing was debited.',
    },
    attempts_exhausted: {
      heading: 'Maximum number of attempts reached',
      text: 'This payment takes no new request.',
    },
  },
  cancel: 'Cancel and go back to the shop',
  abandon: 'Give up and go back to the shop',
  back: 'Go back to the shop',
  errors: {
    not_found: {
      heading: 'Page not found',
      text: 'This payment link does not exist. Check the address or contact the merchant.',
    },
    forbidden: {
      heading: 'Request refused',
      text: 'For your security, the form must be sent from the payment page. Open the payment link again.',
    },
    bad_request: {
      heading: 'Invalid request',
      text: 'The request could not be read. Open the payment link again.',
    },
    too_many_submissions: {
      heading: 'Too many requests',
      text: 'Too many payment requests were sent from your connection. Wait a few minutes, then open the payment link again.',
    },
    unavailable: {
      heading: 'Service unavailable',
      text: 'The service is temporarily unavailable. Try again in a moment.',
    },
    internal: {
      heading: 'Something went wrong',
      text: 'Try again in a moment. If the problem persists, contact the merchant.',
    },
  },
  requestId: 'Request id:',
};

export const COPIES: Readonly<Record<Language, Copy>> = { fr: FRENCH, en: ENGLISH };

/** French unless the customer chose or prefers English. */
export const DEFAULT_COPY = FRENCH;
