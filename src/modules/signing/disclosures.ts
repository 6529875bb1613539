import crypto from 'node:crypto';

/**
 * The electronic-signature disclosure in each language the signing page speaks (docs/signing.md "The disclosure
 * and consent"), verbatim. English is the original; each other text says the same, as a native speaker writes it,
 * and was reviewed for meaning against it. A client shows one (GET /workflow/v1/signing/disclosure?lang=) and names
 * the one it showed by its SHA-256 (header X-Disclosure-SHA256); the consent record stores that text and hash.
 * Changing a word changes its hash: earlier consents keep theirs and stay provable.
 */
const TEXTS = {
  en: [
    'Electronic signature disclosure.',
    'By saving, signing or approving this document you agree to use electronic records and signatures for it.',
    'Your electronic signature, initials and the values you enter have the same effect as your handwritten signature and entries on paper.',
    'You will receive the completed, sealed document electronically; you may ask the sender for a paper copy.',
    'You may withdraw this consent at any time before you finish by declining to sign.',
    'To prove what happened, the service records your name, email address, IP address, device (user agent) and the time of each of your actions.',
  ],
  de: [
    'Hinweis zur elektronischen Signatur.',
    'Indem Sie dieses Dokument speichern, unterschreiben oder genehmigen, stimmen Sie zu, dafür elektronische Aufzeichnungen und Signaturen zu verwenden.',
    'Ihre elektronische Unterschrift, Ihre Initialen und die von Ihnen eingegebenen Werte haben dieselbe Wirkung wie Ihre handschriftliche Unterschrift und Ihre Angaben auf Papier.',
    'Sie erhalten das abgeschlossene, versiegelte Dokument elektronisch; Sie können beim Absender eine Papierkopie anfordern.',
    'Sie können diese Zustimmung jederzeit vor dem Abschluss widerrufen, indem Sie die Unterschrift ablehnen.',
    'Zum Nachweis des Ablaufs speichert der Dienst Ihren Namen, Ihre E-Mail-Adresse, Ihre IP-Adresse, Ihr Gerät (User-Agent) und den Zeitpunkt jeder Ihrer Handlungen.',
  ],
  fr: [
    'Information sur la signature électronique.',
    'En enregistrant, en signant ou en approuvant ce document, vous acceptez d’utiliser pour celui-ci des documents et des signatures électroniques.',
    'Votre signature électronique, vos initiales et les valeurs que vous saisissez ont le même effet que votre signature manuscrite et vos mentions sur papier.',
    'Vous recevrez le document finalisé et scellé par voie électronique ; vous pouvez demander une copie papier à l’expéditeur.',
    'Vous pouvez retirer ce consentement à tout moment avant d’avoir terminé, en refusant de signer.',
    'Pour prouver le déroulement des opérations, le service enregistre votre nom, votre adresse e-mail, votre adresse IP, votre appareil (user agent) et l’heure de chacune de vos actions.',
  ],
  es: [
    'Información sobre la firma electrónica.',
    'Al guardar, firmar o aprobar este documento, usted acepta utilizar registros y firmas electrónicos para él.',
    'Su firma electrónica, sus iniciales y los datos que introduzca tienen el mismo efecto que su firma manuscrita y sus anotaciones en papel.',
    'Recibirá el documento finalizado y sellado por vía electrónica; puede pedir al remitente una copia en papel.',
    'Puede retirar este consentimiento en cualquier momento antes de terminar, rechazando la firma.',
    'Para dejar constancia de lo ocurrido, el servicio registra su nombre, su dirección de correo electrónico, su dirección IP, su dispositivo (agente de usuario) y la hora de cada una de sus acciones.',
  ],
  it: [
    'Informativa sulla firma elettronica.',
    'Salvando, firmando o approvando questo documento, Lei accetta di utilizzare per esso documenti e firme elettronici.',
    'La Sua firma elettronica, le Sue iniziali e i valori che inserisce hanno lo stesso effetto della Sua firma autografa e di quanto scritto su carta.',
    'Riceverà il documento completato e sigillato in formato elettronico; può chiedere al mittente una copia cartacea.',
    'Può revocare questo consenso in qualsiasi momento prima di concludere, rifiutando di firmare.',
    'Per documentare quanto avvenuto, il servizio registra il Suo nome, il Suo indirizzo e-mail, il Suo indirizzo IP, il Suo dispositivo (user agent) e l’ora di ciascuna delle Sue azioni.',
  ],
  nl: [
    'Verklaring elektronische handtekening.',
    'Door dit document op te slaan, te ondertekenen of goed te keuren, gaat u ermee akkoord dat u hiervoor elektronische documenten en handtekeningen gebruikt.',
    'Uw elektronische handtekening, uw initialen en de gegevens die u invult hebben hetzelfde effect als uw handgeschreven handtekening en invullingen op papier.',
    'U ontvangt het voltooide, verzegelde document elektronisch; u kunt de afzender om een papieren kopie vragen.',
    'U kunt deze toestemming op elk moment voordat u klaar bent intrekken door te weigeren te ondertekenen.',
    'Om te kunnen aantonen wat er is gebeurd, legt de dienst uw naam, e-mailadres, IP-adres, apparaat (user agent) en het tijdstip van elk van uw handelingen vast.',
  ],
  pt: [
    'Informação sobre a assinatura eletrónica.',
    'Ao guardar, assinar ou aprovar este documento, aceita utilizar registos e assinaturas eletrónicos para o mesmo.',
    'A sua assinatura eletrónica, as suas iniciais e os dados que introduzir têm o mesmo efeito que a sua assinatura manuscrita e os seus registos em papel.',
    'Receberá o documento concluído e selado por via eletrónica; pode pedir ao remetente uma cópia em papel.',
    'Pode retirar este consentimento a qualquer momento antes de concluir, recusando assinar.',
    'Para comprovar o que aconteceu, o serviço regista o seu nome, endereço de e-mail, endereço IP, dispositivo (user agent) e a hora de cada uma das suas ações.',
  ],
  pl: [
    'Informacja o podpisie elektronicznym.',
    'Zapisując, podpisując lub zatwierdzając ten dokument, zgadzasz się na używanie w jego przypadku dokumentów i podpisów elektronicznych.',
    'Twój podpis elektroniczny, inicjały i wprowadzone przez Ciebie dane mają taki sam skutek jak podpis własnoręczny i wpisy na papierze.',
    'Gotowy, opieczętowany dokument otrzymasz w formie elektronicznej; możesz poprosić nadawcę o kopię papierową.',
    'Możesz wycofać tę zgodę w dowolnym momencie przed zakończeniem, odmawiając podpisu.',
    'Aby można było udowodnić przebieg zdarzeń, serwis zapisuje Twoje imię i nazwisko, adres e-mail, adres IP, urządzenie (user agent) oraz czas każdej Twojej czynności.',
  ],
} as const;

export type DisclosureLanguage = keyof typeof TEXTS;
export type Disclosure = { lang: DisclosureLanguage; text: string; textHash: string };

export const DISCLOSURE_LANGUAGES = Object.keys(TEXTS) as DisclosureLanguage[];

const DISCLOSURES = new Map<DisclosureLanguage, Disclosure>(
  DISCLOSURE_LANGUAGES.map((lang) => {
    const text = TEXTS[lang].join(' ');
    return [lang, { lang, text, textHash: crypto.createHash('sha256').update(text, 'utf8').digest('hex') }];
  }),
);

/** The disclosure in `lang` (a BCP 47 tag: its primary subtag counts); English for any other or none. */
export function disclosureFor(lang: string | undefined): Disclosure {
  const primary = lang?.trim().toLowerCase().split('-')[0] as DisclosureLanguage | undefined;
  return DISCLOSURES.get(primary ?? 'en') ?? DISCLOSURES.get('en')!;
}

/** The disclosure whose SHA-256 (hex) is `hash`, or null when no current text has it. */
export function disclosureByHash(hash: string): Disclosure | null {
  const wanted = hash.trim().toLowerCase();
  for (const disclosure of DISCLOSURES.values()) if (disclosure.textHash === wanted) return disclosure;
  return null;
}
