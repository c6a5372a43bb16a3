"""The participant pages' interface strings, in each study language (English and Chinese).

The researcher writes the instructions and consent text in the study's language; everything
else a participant reads comes from here, so a Chinese study shows no English button.
`DEFAULT_INSTRUCTIONS` and `DEFAULT_CONSENT` fill a new study's texts.
"""

LANGUAGES = ("en", "zh")

UI: dict[str, dict[str, str]] = {
    "en": {
        "study": "Study",
        "consent_title": "Consent",
        "consent_version": "Consent text version",
        "consent_checkbox": "I have read the text above and agree to take part.",
        "consent_required": "Please tick the box to agree before you start.",
        "start": "Start",
        "continue": "Continue",
        "instructions_title": "Instructions",
        "question_2afc": "Which sentence sounds more natural?",
        "question_rank3": "Tap the sentences from the most natural to the least natural.",
        "rank_reset": "Start the ranking again",
        "confidence_question": "How sure are you?",
        "confidence_1": "Not sure",
        "confidence_2": "Fairly sure",
        "confidence_3": "Very sure",
        "progress": "Trial {n} of {total}",
        "practice": "Practice",
        "feedback_right": "Yes: most people choose that sentence.",
        "feedback_wrong": "Most people choose the other sentence.",
        "next": "Next",
        "saving": "Saving…",
        "retrying": "No connection. Trying again…",
        "waiting": "Many answers at once: going on by itself in {seconds} s.",
        "save_failed": "Your answer could not be saved. Check your connection; we keep trying.",
        "done_title": "Thank you!",
        "done_text": "You have completed the study. Your completion code is:",
        "done_redirect": "Taking you back to Prolific…",
        "done_continue": "Continue to Prolific now",
        "already_done": "You have already completed this study. Thank you!",
        "withdraw": "Withdraw from the study",
        "withdraw_title": "Withdraw from the study",
        "withdraw_text": "If you withdraw, every answer you gave is deleted and you cannot take "
        "part in this study again. You will not receive a completion code.",
        "withdraw_confirm": "Yes, withdraw and delete my answers",
        "withdraw_cancel": "No, go back to the study",
        "withdrawn_title": "You have withdrawn",
        "withdrawn_text": "Your answers have been deleted. You can close this page.",
        "not_open": "This study is not open at the moment.",
        "not_found": "There is no study at this address. Check the link you were given.",
        "bad_link": "This link is not valid or has expired.",
        "restart": "Go to the start of the study",
        "wrong_study_id": "This link belongs to a different Prolific study. Please use the link "
        "shown in Prolific.",
        "wrong_participant": "This page belongs to a different participant.",
        "error_title": "Something went wrong",
        "busy": "The server is busy. Please try again in a moment; your answers are safe.",
        "busy_consent_kept": "The server was busy for a moment. Your consent is kept: press the "
        "button again to begin.",
        "trial_label": "Sentence {n}",
        "question_rating": "How natural does this sentence sound?",
        "question_magnitude": "How natural is this sentence, compared with the reference sentence?",
        "scale_low": "Very unnatural",
        "scale_high": "Very natural",
        "scale_point": "{n} of {points}",
        "magnitude_reference": "Reference sentence, worth {value}:",
        "magnitude_label": "Your number for the sentence above",
        "magnitude_hint": "Twice as natural as the reference: twice its number; half as natural: half.",
        "magnitude_invalid": "Write a number greater than 0 (up to 1,000,000).",
        "feedback_high": "Most people find this sentence natural: a high rating.",
        "feedback_low": "Most people find this sentence unnatural: a low rating.",
        "prolific_only": "This study takes its participants through Prolific. Please open it "
        "from the study's page on Prolific.",
        "prolific_only_title": "Please start on Prolific",
        "wrong_study_id_title": "Please start on Prolific",
        "started_elsewhere": "This Prolific ID has already started this study in another "
        "browser or Prolific session. Please continue where you started; if you cannot, "
        "write to the researcher through Prolific.",
        "started_elsewhere_title": "Already started",
        "full": "This study has all the participants it needs and is now closed. Thank you for "
        "your interest.",
        "full_title": "The study is full",
        "full_for_now": "Every place in this study is taken by participants working right now. "
        "A place may free up later: please try again in a while.",
        "full_for_now_title": "No place free right now",
        "not_open_title": "Not open",
        "not_found_title": "No such study",
    },
    "zh": {
        "study": "研究",
        "consent_title": "知情同意",
        "consent_version": "同意书版本",
        "consent_checkbox": "我已阅读以上内容，同意参加本研究。",
        "consent_required": "开始之前，请勾选同意。",
        "start": "开始",
        "continue": "继续",
        "instructions_title": "说明",
        "question_2afc": "哪个句子听起来更自然？",
        "question_rank3": "请按从最自然到最不自然的顺序依次点击句子。",
        "rank_reset": "重新排序",
        "confidence_question": "你有多确定？",
        "confidence_1": "不确定",
        "confidence_2": "比较确定",
        "confidence_3": "非常确定",
        "progress": "第 {n} 题，共 {total} 题",
        "practice": "练习",
        "feedback_right": "对：大多数人选择这个句子。",
        "feedback_wrong": "大多数人选择另一个句子。",
        "next": "下一题",
        "saving": "正在保存…",
        "retrying": "网络连接中断，正在重试…",
        "waiting": "提交过于频繁：{seconds} 秒后自动继续。",
        "save_failed": "你的回答暂时无法保存。请检查网络连接；我们会继续尝试。",
        "done_title": "谢谢！",
        "done_text": "你已完成本研究。你的完成码是：",
        "done_redirect": "正在返回 Prolific…",
        "done_continue": "立即返回 Prolific",
        "already_done": "你已经完成了本研究。谢谢！",
        "withdraw": "退出研究",
        "withdraw_title": "退出研究",
        "withdraw_text": "如果退出，你的所有回答都会被删除，并且不能再次参加本研究。你不会得到完成码。",
        "withdraw_confirm": "确认退出并删除我的回答",
        "withdraw_cancel": "不，返回研究",
        "withdrawn_title": "你已退出",
        "withdrawn_text": "你的回答已被删除。你可以关闭此页面。",
        "not_open": "本研究目前未开放。",
        "not_found": "此地址没有研究。请检查你收到的链接。",
        "bad_link": "此链接无效或已过期。",
        "restart": "回到研究的开始页面",
        "wrong_study_id": "此链接属于另一个 Prolific 研究。请使用 Prolific 中显示的链接。",
        "wrong_participant": "此页面属于另一位参与者。",
        "error_title": "出错了",
        "busy": "服务器繁忙，请稍后再试；你的回答已保存。",
        "busy_consent_kept": "服务器刚才繁忙。你的同意已保留，请再按一次按钮开始。",
        "trial_label": "句子 {n}",
        "question_rating": "这个句子听起来有多自然？",
        "question_magnitude": "与参照句相比，这个句子有多自然？",
        "scale_low": "非常不自然",
        "scale_high": "非常自然",
        "scale_point": "{n} / {points}",
        "magnitude_reference": "参照句，分值为 {value}：",
        "magnitude_label": "你给上面这个句子的分数",
        "magnitude_hint": "如果比参照句自然一倍，就写两倍的分数；如果只有一半自然，就写一半。",
        "magnitude_invalid": "请写一个大于 0 的数（最多 1,000,000）。",
        "feedback_high": "大多数人觉得这个句子自然：评分较高。",
        "feedback_low": "大多数人觉得这个句子不自然：评分较低。",
        "prolific_only": "本研究通过 Prolific 招募参与者。请从 Prolific 上的研究页面打开。",
        "prolific_only_title": "请从 Prolific 开始",
        "wrong_study_id_title": "请从 Prolific 开始",
        "started_elsewhere": "此 Prolific ID 已在另一个浏览器或 Prolific 会话中开始了本研究。"
        "请在开始的地方继续；如果无法继续，请通过 Prolific 联系研究者。",
        "started_elsewhere_title": "已经开始",
        "full": "本研究的参与者已满，现已关闭。感谢你的关注。",
        "full_title": "研究已满",
        "full_for_now": "本研究的所有名额目前都被正在作答的参与者占用。"
        "稍后可能会有名额空出，请过一会儿再试。",
        "full_for_now_title": "暂无空余名额",
        "not_open_title": "未开放",
        "not_found_title": "没有这个研究",
    },
}

DEFAULT_INSTRUCTIONS = {
    "en": "On each screen you see two sentences. Choose the one that sounds more natural to you "
    "as a native speaker. There are no right or wrong answers in general, and no time limit: go "
    "with your first impression. Your answers are saved as you go; if you close the page, open "
    "the link again to continue where you stopped.",
    "zh": "每个页面上有两个句子。请以母语者的语感，选择听起来更自然的那一个。没有时间限制，"
    "凭第一感觉作答即可。你的回答会随时保存；如果关闭了页面，再次打开链接即可从中断处继续。",
}

DEFAULT_RATING_INSTRUCTIONS = {
    "en": "On each screen you see one sentence. Rate how natural it sounds to you as a native "
    "speaker, from the lowest point (very unnatural) to the highest (very natural). Use the whole "
    "scale, and go with your first impression; there is no time limit. Your answers are saved as "
    "you go; if you close the page, open the link again to continue where you stopped.",
    "zh": "每个页面上有一个句子。请以母语者的语感，为它听起来有多自然打分：最低分表示非常不自然，"
    "最高分表示非常自然。请使用整个量表，凭第一感觉作答，没有时间限制。你的回答会随时保存；"
    "如果关闭了页面，再次打开链接即可从中断处继续。",
}

DEFAULT_MAGNITUDE_INSTRUCTIONS = {
    "en": "On each screen you see a reference sentence with a number, and a new sentence. Give the "
    "new sentence a number that says how natural it sounds compared with the reference: twice as "
    "natural, twice the number; half as natural, half the number. Any number above 0 will do. "
    "Your answers are saved as you go; if you close the page, open the link again to continue.",
    "zh": "每个页面上有一个带分数的参照句和一个新句子。请给新句子一个分数，表示它与参照句相比有多自然："
    "自然一倍就写两倍的分数，只有一半自然就写一半的分数。任何大于 0 的数都可以。你的回答会随时保存；"
    "如果关闭了页面，再次打开链接即可继续。",
}

DEFAULT_CONSENT = {
    "en": "This study collects your judgements of sentences for language research. It takes "
    "about 10 minutes. We store your answers, response times and the time you gave consent; we "
    "do not store your IP address. Your Prolific ID is used only to pay you and is removed from "
    "any data we share. You can withdraw at any time with the link at the bottom of each page, "
    "which deletes your answers.",
    "zh": "本研究收集你对句子的判断，用于语言研究，约需 10 分钟。我们保存你的回答、反应时间和"
    "你同意参加的时间；不保存你的 IP 地址。你的 Prolific ID 仅用于支付报酬，共享数据前会被删除。"
    "你可以随时通过每页底部的链接退出，退出后你的回答将被删除。",
}


def ui_strings(language: str) -> dict[str, str]:
    """Return the interface strings of `language` (English for any other code)."""
    return UI.get(language, UI["en"])
